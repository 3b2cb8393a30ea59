import { GOVERNANCE_SANDBOX, type Sandbox, startSandbox } from '../../../sandbox/index.js';
import { ManualClock } from '../../../src/clock.js';
import type { Connection } from '../../../src/connection/connection.js';
import { MemoryConnectionStore } from '../../../src/connection/memory-store.js';
import { definedOnly } from '../../../src/defined-only.js';
import type { InvocationResult } from '../../../src/runtime.js';
import { Runtime } from '../../../src/runtime.js';
import { createRegistry } from '../../../steps/index.js';

export const seed = GOVERNANCE_SANDBOX;

export interface GovernanceFixture {
  sandbox: Sandbox;
  clock: ManualClock;
  store: MemoryConnectionStore;
  runtime: Runtime;
  registry: ReturnType<typeof createRegistry>;
  /** Stores a governance connection; `projectId: null` leaves the field out. */
  connect(
    id: string,
    options: { apiKey: string; projectId?: string | null; region?: string; baseUrl?: string },
  ): Promise<Connection>;
  /** Runs a step; the connection defaults to "admin" (Alice, organization admin, default project). */
  invoke<T = Record<string, unknown>>(
    stepId: string,
    input: unknown,
    connection?: string,
  ): Promise<InvocationResult<T>>;
  /** What reached the governance emulator, in order. */
  sent(): {
    method: string;
    path: string;
    authorization: string | undefined;
    contentType: string | undefined;
    rawBody: string;
  }[];
  close(): Promise<void>;
}

/**
 * A sandbox on a manual clock with three connections: "admin" (organization
 * admin, default project), "member" (Bob, a viewer there) and "org" (admin key, no project).
 */
export async function governanceFixture(): Promise<GovernanceFixture> {
  // A fixed start, a few seconds into a minute, keeps rate windows deterministic.
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 0, 5));
  const sandbox = await startSandbox({ clock });
  const store = new MemoryConnectionStore();
  const runtime = new Runtime({ store, clock, retry: { random: () => 0.5 } });
  const registry = createRegistry();
  const connect: GovernanceFixture['connect'] = async (id, options) => {
    const projectId = options.projectId === undefined ? seed.projectId : options.projectId;
    const connection: Connection = {
      id,
      integration: 'governance',
      kind: 'api_key',
      fields: {
        region: options.region ?? seed.region,
        baseUrl: options.baseUrl ?? sandbox.baseUrl('governance', options.region ?? seed.region),
        ...definedOnly({ projectId: projectId ?? undefined }),
      },
      secrets: { apiKey: options.apiKey },
      createdAt: clock.now(),
      updatedAt: clock.now(),
    };
    await store.put(connection);
    return connection;
  };
  await connect('admin', { apiKey: seed.adminKey });
  await connect('member', { apiKey: seed.memberKey });
  await connect('org', { apiKey: seed.adminKey, projectId: null });
  return {
    sandbox,
    clock,
    store,
    runtime,
    registry,
    connect,
    invoke: (stepId, input, connection = 'admin') =>
      registry.invoke(runtime, stepId, { connection, input }) as never,
    sent: () =>
      sandbox.server.requestLog
        .filter((entry) => entry.mount === 'governance')
        .map((entry) => ({
          method: entry.method,
          path: entry.path,
          authorization: entry.headers.authorization,
          contentType: entry.headers['content-type'],
          rawBody: entry.rawBody,
        })),
    close: () => sandbox.close(),
  };
}
