import { type Sandbox, type SandboxOptions, startSandbox } from '../../sandbox/index.js';
import type { SandboxRequestLogEntry } from '../../sandbox/sandbox-server.js';
import { type Clock, ManualClock } from '../../src/model/clock.js';
import type { Connection } from '../../src/model/connection.js';
import { MemoryLogger } from '../../src/model/logger.js';
import { Runtime, type RuntimeOptions } from '../../src/runtime/runtime.js';
import { MemoryConnectionStore } from '../../src/store/memory/memory-connection-store.js';
import { type CatalogInvokers, catalogInvokers } from './catalog-invoke.js';

/** A few seconds into a minute, so per-minute rate windows are deterministic. */
export const FIXTURE_START = Date.UTC(2026, 5, 1, 12, 0, 5);

/** A connection before the store's timestamps are set. */
export type UnstampedConnection = Omit<Connection, 'createdAt' | 'updatedAt'>;

/** The connection as the store keeps it, created (and last updated) now. */
export function stamped(connection: UnstampedConnection, clock: Clock): Connection {
  return { ...connection, createdAt: clock.now(), updatedAt: clock.now() };
}

export interface SandboxFixtureOptions {
  /** Where the manual clock starts. Default `FIXTURE_START`. */
  start?: number;
  sandbox?: SandboxOptions;
  runtime?: RuntimeOptions;
  /**
   * The connections the store holds, stamped as created at the clock's start;
   * the first is the one `invoke` uses unless told otherwise.
   */
  connections(sandbox: Sandbox, clock: ManualClock): [UnstampedConnection, ...UnstampedConnection[]];
}

export interface SandboxFixture extends CatalogInvokers {
  sandbox: Sandbox;
  clock: ManualClock;
  store: MemoryConnectionStore;
  logger: MemoryLogger;
  runtime: Runtime;
  /** The default connection. */
  connection: Connection;
  /** Requests that reached one emulator (its mount, e.g. `contact-data`), in order. */
  requests(mount: string): SandboxRequestLogEntry[];
  close(): Promise<void>;
}

/**
 * Every provider's sandbox on a manual clock, a runtime whose retries do not
 * jitter, an in-memory store with the given connections, and the catalogue.
 */
export async function sandboxFixture(options: SandboxFixtureOptions): Promise<SandboxFixture> {
  const clock = new ManualClock(options.start ?? FIXTURE_START);
  const sandbox = await startSandbox({ clock, ...options.sandbox });
  const [first, ...others] = options.connections(sandbox, clock);
  const connections: [Connection, ...Connection[]] = [
    stamped(first, clock),
    ...others.map((connection) => stamped(connection, clock)),
  ];
  const store = new MemoryConnectionStore(connections);
  const logger = new MemoryLogger();
  const runtime = new Runtime({ store, clock, logger, retry: { random: () => 0.5 }, ...options.runtime });
  return {
    sandbox,
    clock,
    store,
    logger,
    runtime,
    connection: connections[0],
    ...catalogInvokers(runtime, connections[0].id),
    requests: (mount) => sandbox.server.requestLog.filter((entry) => entry.mount === mount),
    close: () => sandbox.close(),
  };
}
