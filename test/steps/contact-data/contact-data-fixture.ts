import type { SandboxOptions } from '../../../sandbox/index.js';
import type { RuntimeOptions } from '../../../src/runtime/runtime.js';
import { type SandboxFixture, sandboxFixture } from '../../support/sandbox-fixture.js';

/** A key long enough to be redacted, distinctive enough to search for in every string we produce. */
export const TEST_KEY = 'cd_test_key_5f2a9c71e4';

export interface ContactDataFixture extends SandboxFixture {
  /** Requests that reached the contact-data emulator, with their JSON bodies parsed. */
  sent(): { method: string; path: string; headers: Record<string, unknown>; body: unknown }[];
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
  const fx = await sandboxFixture({
    runtime: options.runtime,
    start: Date.UTC(2026, 2, 2, 9, 0, 0),
    sandbox: {
      ...options.sandbox,
      contactData: {
        keys: { [TEST_KEY]: { credits: options.credits ?? 10_000, plan: options.plan ?? 'pro' } },
        ...options.sandbox?.contactData,
      },
    },
    connections: (sandbox) => [
      {
        id: 'contacts-main',
        integration: 'contact_data',
        label: 'Sales data',
        kind: 'api_key',
        fields: { baseUrl: sandbox.baseUrl('contact-data') },
        secrets: { apiKey: TEST_KEY },
      },
    ],
  });
  return {
    ...fx,
    sent: () =>
      fx.requests('contact-data').map((entry) => ({
        method: entry.method,
        path: entry.path,
        headers: entry.headers as Record<string, unknown>,
        body: entry.rawBody === '' ? undefined : JSON.parse(entry.rawBody),
      })),
  };
}
