import { type Sandbox, type SandboxOptions, startSandbox } from '../../sandbox/index.js';
import { ManualClock } from '../../src/clock.js';
import type { Connection } from '../../src/connection/connection.js';
import { MemoryConnectionStore } from '../../src/connection/memory-store.js';
import { Runtime, type RuntimeOptions } from '../../src/runtime.js';
import { createRegistry } from '../../steps/index.js';

export interface TicketingFixture {
  sandbox: Sandbox;
  clock: ManualClock;
  store: MemoryConnectionStore;
  runtime: Runtime;
  registry: ReturnType<typeof createRegistry>;
  connection: Connection;
  invoke: <T = unknown>(
    stepId: string,
    input: unknown,
    extra?: Record<string, unknown>,
  ) => ReturnType<Runtime['invoke']> & Promise<{ output: T }>;
  close(): Promise<void>;
}

/** A sandbox with a ticketing connection issued for the seeded admin, on a manual clock. */
export async function ticketingFixture(
  options: { sandbox?: SandboxOptions; runtime?: RuntimeOptions; subdomain?: string } = {},
): Promise<TicketingFixture> {
  // A fixed start, 5 s into a minute, keeps per-minute rate windows deterministic.
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 0, 5));
  const sandbox = await startSandbox({ clock, ...options.sandbox });
  const subdomain = options.subdomain ?? 'acme';
  const tokens = sandbox.ticketing.issueTokens(subdomain);
  const connection: Connection = {
    id: 'tickets-main',
    integration: 'ticketing',
    label: 'Acme support',
    kind: 'oauth2',
    fields: { subdomain, baseUrl: sandbox.baseUrl('ticketing', subdomain), clientId: 'toolsteps-cli' },
    secrets: { accessToken: tokens.access_token, refreshToken: tokens.refresh_token! },
    expiresAt: clock.now() + (tokens.expires_in ?? 1800) * 1000,
    createdAt: clock.now(),
    updatedAt: clock.now(),
  };
  const store = new MemoryConnectionStore([connection]);
  const runtime = new Runtime({ store, clock, retry: { random: () => 0.5 }, ...options.runtime });
  const registry = createRegistry();
  return {
    sandbox,
    clock,
    store,
    runtime,
    registry,
    connection,
    invoke: ((stepId: string, input: unknown, extra: Record<string, unknown> = {}) =>
      registry.invoke(runtime, stepId, {
        connection: connection.id,
        input,
        ...extra,
      })) as TicketingFixture['invoke'],
    close: () => sandbox.close(),
  };
}
