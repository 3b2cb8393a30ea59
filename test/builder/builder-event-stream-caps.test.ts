import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STREAMS_PER_TENANT } from '../../src/builder/trigger-event-hub.js';
import { type BuilderWorld, openBuilderWorld } from './builder-fixture.js';

/**
 * Event streams hold their connection while open: 16 per tenant, and a cap
 * across every tenant, so many tenants' streams together cannot take the
 * connections everyone's requests need.
 */

const SERVER_STREAMS = MAX_STREAMS_PER_TENANT + 4;

let world: BuilderWorld;
const open: Response[] = [];
beforeAll(async () => {
  world = await openBuilderWorld({ maxEventStreams: SERVER_STREAMS });
});
afterAll(async () => {
  await Promise.all(open.map((stream) => stream.body?.cancel().catch(() => undefined)));
  await world.close();
});

async function stream(tenant: string): Promise<Response> {
  const response = await world.api('/v1/events', { token: world.token(tenant) });
  if (response.status === 200) open.push(response);
  return response;
}

describe('event streams are capped per tenant and across the server', () => {
  it('a tenant past its 16 streams is refused 429 rate_limited', async () => {
    for (let index = 0; index < MAX_STREAMS_PER_TENANT; index += 1) {
      expect((await stream('acme')).status).toBe(200);
    }
    const refused = await stream('acme');
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.code).toBe('rate_limited');
  });

  it('past the server-wide cap, any tenant is refused 503 server_busy, retryable, with Retry-After', async () => {
    for (let index = MAX_STREAMS_PER_TENANT; index < SERVER_STREAMS; index += 1) {
      expect((await stream('globex')).status).toBe(200);
    }
    const refused = await stream('initech');
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await refused.json()).error).toMatchObject({ code: 'server_busy', retryable: true });
  });

  it('a stream that closes gives its place to another tenant’s', async () => {
    await open.shift()?.body?.cancel();
    let status = 0;
    for (let tries = 0; tries < 50 && status !== 200; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const response = await stream('initech');
      status = response.status;
      if (status !== 200) await response.body?.cancel();
    }
    expect(status).toBe(200);
  });
});
