import { type Sandbox, type SandboxOptions, startSandbox } from '../../../sandbox/index.js';
import { ManualClock } from '../../../src/clock.js';
import type { Connection } from '../../../src/connection/connection.js';
import { MemoryConnectionStore } from '../../../src/connection/memory-store.js';
import { MemoryLogger } from '../../../src/logger.js';
import { type InvokeOptions, Runtime, type RuntimeOptions } from '../../../src/runtime.js';
import { createRegistry } from '../../../steps/index.js';

export interface AnzDataFixture {
  sandbox: Sandbox;
  clock: ManualClock;
  logger: MemoryLogger;
  runtime: Runtime;
  registry: ReturnType<typeof createRegistry>;
  apiKey: string;
  connection: Connection;
  /** Requests that reached the emulator. */
  sent(): Sandbox['server']['requestLog'];
  invoke<Output = Record<string, unknown>>(
    stepId: string,
    input: unknown,
    extra?: Partial<InvokeOptions>,
  ): ReturnType<Runtime['invoke']> & Promise<{ output: Output }>;
  close(): Promise<void>;
}

/** A sandbox with an anz_data connection holding a fresh key, on a manual clock. */
export async function anzDataFixture(
  options: { sandbox?: SandboxOptions; runtime?: RuntimeOptions; credits?: number } = {},
): Promise<AnzDataFixture> {
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 9, 0, 0));
  const sandbox = await startSandbox({ clock, ...options.sandbox });
  const apiKey = sandbox.anzData.issueKey(options.credits ?? 100);
  const connection: Connection = {
    id: 'anz-main',
    integration: 'anz_data',
    label: 'Prospecting',
    kind: 'api_key',
    fields: { baseUrl: sandbox.baseUrl('anz-data') },
    secrets: { apiKey },
    createdAt: clock.now(),
    updatedAt: clock.now(),
  };
  const logger = new MemoryLogger();
  const runtime = new Runtime({
    store: new MemoryConnectionStore([connection]),
    clock,
    logger,
    retry: { random: () => 0.5 },
    ...options.runtime,
  });
  const registry = createRegistry();
  return {
    sandbox,
    clock,
    logger,
    runtime,
    registry,
    apiKey,
    connection,
    sent: () => sandbox.server.requestLog.filter((entry) => entry.mount === 'anz-data'),
    invoke: ((stepId: string, input: unknown, extra: Partial<InvokeOptions> = {}) =>
      registry.invoke(runtime, stepId, {
        connection: connection.id,
        input,
        ...extra,
      })) as AnzDataFixture['invoke'],
    close: () => sandbox.close(),
  };
}
