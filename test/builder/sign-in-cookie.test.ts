import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowAtProvider, type BuilderWorld, openBuilderWorld, storesOf } from './builder-fixture.js';

/**
 * The sign-in cookie over HTTP: what the start answers, and a callback that
 * comes without it or with another flow's or a forged one stores nothing.
 * (test/ui/sign-in-browser.test.ts plays the attack in Chromium.)
 */
let world: BuilderWorld;
beforeAll(async () => {
  world = await openBuilderWorld();
});
afterAll(() => world.close());

async function start(id: string) {
  const answer = await world.api('/v1/connections', { body: { integration: 'ticketing', id } });
  const body = (await answer.json()) as { flowId: string; authorizeUrl: string };
  return { body, setCookie: answer.headers.getSetCookie() };
}

describe('the sign-in cookie', () => {
  it('the start sets one HttpOnly, SameSite=Lax cookie of the flow, scoped to the callback for the flow’s time', async () => {
    const { body, setCookie } = await start('cookie-shape');
    expect(setCookie).toHaveLength(1);
    expect(setCookie[0]).toMatch(
      new RegExp(
        `^toolsteps_signin_${body.flowId}=[A-Za-z0-9_-]{43}; Path=/v1/oauth/callback; Max-Age=600; HttpOnly; SameSite=Lax$`,
      ),
    );
    const preflight = await world.api('/v1/connections', { method: 'OPTIONS', token: null });
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
    expect(preflight.headers.get('access-control-allow-origin')).not.toBe('*');
  });

  it('a callback without the cookie, or with a forged or another flow’s, exchanges nothing and stores nothing', async () => {
    const other = await start('cookie-other');
    const otherCookie = other.setCookie[0]!.split(';')[0]!.split('=')[1];
    for (const [id, cookie] of [
      ['no-cookie', undefined],
      ['forged-cookie', 'A'.repeat(43)],
      ['borrowed-cookie', otherCookie],
    ] as const) {
      const { body } = await start(id);
      const callback = await allowAtProvider(world, body.authorizeUrl);
      const headers: Record<string, string> = cookie
        ? { cookie: `toolsteps_signin_${body.flowId}=${cookie}` }
        : {};
      const page = await fetch(callback, { redirect: 'manual', headers });
      expect(page.status, id).toBe(400);
      expect(await page.text()).toContain('Restart the sign-in from the page that started it.');
      const status = await world.json(`/v1/connect-flows/${body.flowId}`);
      expect(status.body).toMatchObject({
        state: 'failed',
        connection: null,
        error: { code: 'other_browser' },
      });
      expect(await storesOf(world).connections.get(id)).toBeUndefined();
      // The state is spent: the starting browser cannot replay this callback either.
      const replay = await fetch(callback, { redirect: 'manual', headers: { cookie: world.cookies() } });
      expect(replay.status).toBe(400);
      expect(await storesOf(world).connections.get(id)).toBeUndefined();
    }
  });
});
