import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuilderWorld, openBuilderWorld } from './builder-fixture.js';

/**
 * One tenant floods the sign-in table: it starts sign-ins and ends each at
 * once through the callback with an error, as anyone holding its token can.
 * Small caps keep the test fast; the rule is the same at the defaults
 * (10,000 in all, 50 per tenant). Another tenant's connect must still be
 * accepted, and answered within a second, while the flood goes on.
 */
const LIMITS = { maxFlows: 40, maxPerTenant: 5 };
let world: BuilderWorld;
beforeAll(async () => {
  world = await openBuilderWorld({
    signIns: LIMITS,
    rateLimit: { requests: 100_000, windowMs: 60_000 },
  });
});
afterAll(() => world.close());

/** Tenant `tenant` starts a ticketing sign-in and, when it was let in, ends it at once with the provider's error. */
async function startAndEnd(tenant: string, index: number): Promise<number> {
  const started = await world.json('/v1/connections', {
    token: world.token(tenant),
    body: { integration: 'ticketing', id: `flood-${index}` },
  });
  if (started.status !== 200) return started.status;
  const state = new URL(started.body.authorizeUrl).searchParams.get('state');
  const ended = await fetch(`${world.server.url}/v1/oauth/callback?state=${state}&error=access_denied`);
  await ended.text();
  return started.status;
}

describe('a tenant flooding the sign-in table', () => {
  it('is held to its own cap, and another tenant’s start is accepted within a second during the flood', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < LIMITS.maxFlows * 2; index += 1)
      statuses.push(await startAndEnd('flooder', index));
    const accepted = statuses.filter((status) => status === 200).length;
    expect(accepted).toBeLessThanOrEqual(LIMITS.maxPerTenant);

    // The flood goes on, four at a time, while the other tenant connects.
    let flooding = true;
    let sent = 0;
    const flood = Promise.all(
      Array.from({ length: 4 }, async () => {
        while (flooding) await startAndEnd('flooder', 1_000 + sent++);
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = performance.now();
    const other = await world.json('/v1/connections', {
      token: world.token('bystander'),
      body: { integration: 'ticketing', id: 'desk' },
    });
    const tookMs = performance.now() - before;
    flooding = false;
    await flood;
    console.log(
      `sign-in flood: tenant B's start answered ${other.status} in ${tookMs.toFixed(1)} ms while tenant A sent ${sent} more starts (A let in ${accepted} of ${statuses.length}; caps ${LIMITS.maxPerTenant} per tenant, ${LIMITS.maxFlows} in all)`,
    );
    expect(other.status, JSON.stringify(other.body)).toBe(200);
    expect(other.body.flow).toBe('redirect');
    expect(tookMs).toBeLessThan(1_000);
  });
});
