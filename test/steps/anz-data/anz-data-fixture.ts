import type { SandboxOptions } from '../../../sandbox/index.js';
import type { RuntimeOptions } from '../../../src/runtime/runtime.js';
import { type SandboxFixture, sandboxFixture } from '../../support/sandbox-fixture.js';

export interface AnzDataFixture extends SandboxFixture {
  apiKey: string;
  /** Requests that reached the emulator. */
  sent(): ReturnType<SandboxFixture['requests']>;
}

/** A sandbox with an anz_data connection holding a fresh key, on a manual clock. */
export async function anzDataFixture(
  options: { sandbox?: SandboxOptions; runtime?: RuntimeOptions; credits?: number } = {},
): Promise<AnzDataFixture> {
  const fx = await sandboxFixture({
    ...options,
    start: Date.UTC(2026, 0, 1, 9, 0, 0),
    connections: (sandbox) => [
      {
        id: 'anz-main',
        integration: 'anz_data',
        label: 'Prospecting',
        kind: 'api_key',
        fields: { baseUrl: sandbox.baseUrl('anz-data') },
        secrets: { apiKey: sandbox.anzData.issueKey(options.credits ?? 100) },
      },
    ],
  });
  return { ...fx, apiKey: fx.connection.secrets.apiKey!, sent: () => fx.requests('anz-data') };
}
