import { type Sandbox, type SandboxOptions, startSandbox } from '../../../sandbox/index.js';
import { ManualClock } from '../../../src/clock.js';
import type { Connection } from '../../../src/connection/connection.js';
import { MemoryConnectionStore } from '../../../src/connection/memory-store.js';
import { definedOnly } from '../../../src/defined-only.js';
import { MemoryLogger } from '../../../src/logger.js';
import {
  type InvocationResult,
  type InvokeOptions,
  Runtime,
  type RuntimeOptions,
} from '../../../src/runtime.js';
import { createRegistry } from '../../../steps/index.js';

export interface WireRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export interface DeploymentsFixture {
  sandbox: Sandbox;
  clock: ManualClock;
  store: MemoryConnectionStore;
  runtime: Runtime;
  logger: MemoryLogger;
  registry: ReturnType<typeof createRegistry>;
  connection: Connection;
  token: string;
  invoke: <T = unknown>(
    stepId: string,
    input: unknown,
    extra?: Partial<InvokeOptions>,
  ) => Promise<InvocationResult<T>>;
  /** What reached the deployments emulator since the last `clearWire()`, API calls only. */
  wire(): WireRequest[];
  clearWire(): void;
  close(): Promise<void>;
}

/** A sandbox on a manual clock and a deployments connection for the seeded user "ada". */
export async function deploymentsFixture(
  options: { sandbox?: SandboxOptions; runtime?: RuntimeOptions; teamId?: string; user?: number } = {},
): Promise<DeploymentsFixture> {
  // A fixed start, a few seconds into a minute, keeps rate windows deterministic.
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 0, 5));
  const sandbox = await startSandbox({ clock, ...options.sandbox });
  const token = sandbox.deployments.issueToken(options.user ?? 1);
  const connection: Connection = {
    id: 'vercel-main',
    integration: 'deployments',
    label: 'Ada (sandbox)',
    kind: 'oauth2_no_refresh',
    fields: definedOnly({ baseUrl: sandbox.baseUrl('deployments'), teamId: options.teamId }),
    secrets: { accessToken: token },
    createdAt: clock.now(),
    updatedAt: clock.now(),
  };
  const store = new MemoryConnectionStore([connection]);
  const logger = new MemoryLogger();
  const runtime = new Runtime({ store, clock, logger, retry: { random: () => 0.5 }, ...options.runtime });
  const registry = createRegistry();
  let seen = 0;
  const entries = () =>
    sandbox.server.requestLog.filter((entry) => entry.mount === 'deployments').slice(seen);
  return {
    sandbox,
    clock,
    store,
    runtime,
    logger,
    registry,
    connection,
    token,
    invoke: ((stepId: string, input: unknown, extra: Partial<InvokeOptions> = {}) =>
      registry.invoke(runtime, stepId, {
        connection: connection.id,
        input,
        ...extra,
      })) as DeploymentsFixture['invoke'],
    wire: () =>
      entries().map((entry) => {
        const url = new URL(entry.path, 'http://sandbox.invalid');
        let body: unknown;
        try {
          body = entry.rawBody === '' ? undefined : JSON.parse(entry.rawBody);
        } catch {
          body = entry.rawBody;
        }
        return {
          method: entry.method,
          path: url.pathname,
          query: url.searchParams,
          headers: entry.headers,
          body,
        };
      }),
    clearWire: () => {
      seen = sandbox.server.requestLog.filter((entry) => entry.mount === 'deployments').length;
    },
    close: () => sandbox.close(),
  };
}

/** `METHOD /path` of each request, for compact assertions. */
export function lines(requests: WireRequest[]): string[] {
  return requests.map((request) => `${request.method} ${request.path}`);
}
