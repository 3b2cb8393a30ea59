import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../sandbox/index.js';
import { ManualClock } from '../../src/model/clock.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { MemoryConnectionStore } from '../../src/store/memory/memory-connection-store.js';
import { createRegistry } from '../../steps/index.js';
import { CONTACT_KEY, TARGETS } from '../support/hostile-targets.js';

/** The rate-limit headers each provider sends (provider facts), as the API Call output must show them. */
const EXPECTED: Record<string, string[]> = {
  ticketing: [
    'x-rate-limit',
    'x-rate-limit-remaining',
    'ratelimit-limit',
    'ratelimit-remaining',
    'ratelimit-reset',
  ],
  anz_data: ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'],
  contact_data: [
    'x-rate-limit-minute',
    'x-minute-requests-left',
    'x-rate-limit-daily',
    'x-daily-requests-left',
  ],
  deployments: ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'],
};

/** A cheap call each provider answers with 2xx. */
const CALLS: Record<string, Record<string, unknown>> = {
  ticketing: { method: 'GET', endpoint: '/api/v2/tickets.json' },
  anz_data: { method: 'GET', endpoint: '/credits' },
  contact_data: { method: 'POST', endpoint: '/company', body: { name: 'Litware Labs' } },
  deployments: { method: 'GET', path: '/v6/deployments' },
};

const clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 0, 5));
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({
    clock,
    contactData: { keys: { [CONTACT_KEY]: { credits: 100, plan: 'pro' } } },
  });
});
afterAll(() => sandbox.close());

const withApiCall = TARGETS.filter((target) => target.apiCall);

describe('every API Call step shows the rate-limit status headers (the spec: read in API response headers)', () => {
  it('covers every integration that has an API Call step', () => {
    expect(withApiCall.map((target) => target.integration).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(withApiCall.map((target) => [target.integration, target] as const))(
    '%s',
    async (integration, target) => {
      const now = clock.now();
      const connection = {
        id: 'c',
        integration,
        createdAt: now,
        updatedAt: now,
        ...target.connection(sandbox, now),
      };
      const runtime = new Runtime({ store: new MemoryConnectionStore([connection]), clock });
      const result = await createRegistry().invokeUnchecked(runtime, target.apiCall!.id, {
        connection: 'c',
        input: CALLS[integration],
      });
      const output = result.output as { headers: Record<string, string> };
      for (const name of EXPECTED[integration]!) expect(output.headers[name], name).toMatch(/^\d+$/);
      // Only the chosen headers: nothing else the provider sent (cookies, server details) leaks through.
      expect(Object.keys(output.headers).filter((name) => name === 'set-cookie' || name === 'date')).toEqual(
        [],
      );
    },
  );
});
