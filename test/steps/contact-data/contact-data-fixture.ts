import { type Sandbox, type SandboxOptions, startSandbox } from '../../../sandbox/index.js';
import { ManualClock } from '../../../src/clock.js';
import type { Connection } from '../../../src/connection/connection.js';
import { MemoryConnectionStore } from '../../../src/connection/memory-store.js';
import type { InvocationResult, InvokeOptions } from '../../../src/runtime.js';
import { Runtime, type RuntimeOptions } from '../../../src/runtime.js';
import { createRegistry } from '../../../steps/index.js';

/** A key long enough to be redacted, distinctive enough to search for in every string we produce. */
export const TEST_KEY = 'cd_test_key_5f2a9c71e4';

export interface ContactDataFixture {
  sandbox: Sandbox;
  clock: ManualClock;
  runtime: Runtime;
  connection: Connection;
  invoke<T = unknown>(
    stepId: string,
    input: unknown,
    extra?: Partial<InvokeOptions>,
  ): Promise<InvocationResult<T>>;
  /** Requests that reached the contact-data emulator, as `METHOD /path`. */
  sent(): { method: string; path: string; headers: Record<string, unknown>; body: unknown }[];
  close(): Promise<void>;
}

/** A sandbox with a contact_data connection on a manual clock; the key holds `credits`. */
export async function contactDataFixture(
  options: {
    credits?: number;
    sandbox?: SandboxOptions;
    runtime?: RuntimeOptions;
    plan?: 'basic' | 'pro';
  } = {},
): Promise<ContactDataFixture> {
  const clock = new ManualClock(Date.UTC(2026, 2, 2, 9, 0, 0));
  const sandbox = await startSandbox({
    clock,
    ...options.sandbox,
    contactData: {
      keys: { [TEST_KEY]: { credits: options.credits ?? 10_000, plan: options.plan ?? 'pro' } },
      ...options.sandbox?.contactData,
    },
  });
  const connection: Connection = {
    id: 'contacts-main',
    integration: 'contact_data',
    label: 'Sales data',
    kind: 'api_key',
    fields: { baseUrl: sandbox.baseUrl('contact-data') },
    secrets: { apiKey: TEST_KEY },
    createdAt: clock.now(),
    updatedAt: clock.now(),
  };
  const runtime = new Runtime({
    store: new MemoryConnectionStore([connection]),
    clock,
    retry: { random: () => 0.5 },
    ...options.runtime,
  });
  const registry = createRegistry();
  return {
    sandbox,
    clock,
    runtime,
    connection,
    invoke: (stepId, input, extra = {}) =>
      registry.invoke(runtime, stepId, { connection: connection.id, input, ...extra }),
    sent: () =>
      sandbox.server.requestLog
        .filter((entry) => entry.mount === 'contact-data')
        .map((entry) => ({
          method: entry.method,
          path: entry.path,
          headers: entry.headers as Record<string, unknown>,
          body: entry.rawBody === '' ? undefined : JSON.parse(entry.rawBody),
        })),
    close: () => sandbox.close(),
  };
}
