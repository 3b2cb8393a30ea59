import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuilderClient } from '../../ui/client/builder-client.js';
import { settledFlow } from '../../ui/client/connect-flow.js';
import {
  type BuilderWorld,
  followSignIn,
  openBuilderWorld,
  PAGE_ORIGIN,
} from '../builder/builder-fixture.js';

/**
 * The kit's sign-in poll against a real builder server whose token may make
 * only a few requests a second: a sign-in that outlasts them must still end
 * connected, not failed with `rate_limited`. The poll runs in Node here (it
 * touches no DOM); the elements that use it run in Chromium.
 */
let world: BuilderWorld;
beforeAll(async () => {
  world = await openBuilderWorld({ rateLimit: { requests: 1, windowMs: 2_000 } });
});
afterAll(() => world.close());

describe('waiting for a sign-in', () => {
  it('waits out the token’s rate limit and still sees the flow connect', async () => {
    const statuses: number[] = [];
    const cookies: string[] = [];
    const client = new BuilderClient({
      baseUrl: world.server.url,
      token: world.token('acme'),
      fetch: async (input, init) => {
        const headers = { ...(init?.headers as Record<string, string>), origin: PAGE_ORIGIN };
        const response = await fetch(input, { ...init, headers });
        statuses.push(response.status);
        // What a browser keeps from a request sent with credentials: the sign-in's cookie.
        if (init?.credentials === 'include') cookies.push(...response.headers.getSetCookie());
        return response;
      },
    });
    const started = await client.startSignIn<{ flowId: string; authorizeUrl: string }>('/v1/connections', {
      integration: 'ticketing',
      id: 'slow-desk',
    });
    const waiting = settledFlow(client, started.flowId, new AbortController().signal);
    // The person takes their time at the allow screen: the poll spends the window's requests meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    await followSignIn(world, started.authorizeUrl, cookies.map((line) => line.split(';')[0]).join('; '));
    const status = await waiting;
    expect(status).toMatchObject({ state: 'connected', connection: { id: 'slow-desk' } });
    // One request per two seconds: the poll was refused on the way, and waited instead of failing.
    expect(statuses).toContain(429);
    expect(statuses.at(-1)).toBe(200);
  });
});
