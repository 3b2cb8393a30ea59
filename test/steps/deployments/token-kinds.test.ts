import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/model/clock.js';
import type { Connection } from '../../../src/model/connection.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { MemoryConnectionStore } from '../../../src/store/memory/memory-connection-store.js';
import { createRegistry } from '../../../steps/index.js';
import { nockedFetch } from '../../support/nocked-fetch.js';

const HOST = 'https://api.vercel.com';
const EMPTY_PAGE = { deployments: [], pagination: { count: 0, next: null, prev: null } };

function setUp(connection: Partial<Connection>) {
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 0, 5));
  const store = new MemoryConnectionStore([
    {
      id: 'v',
      integration: 'deployments',
      kind: 'oauth2',
      fields: { clientId: 'cl_app' },
      secrets: { accessToken: 'old-access-0123456789' },
      createdAt: clock.now(),
      updatedAt: clock.now(),
      ...connection,
    },
  ]);
  const runtime = new Runtime({
    store,
    clock,
    transport: { fetch: nockedFetch },
    retry: { random: () => 0.5 },
  });
  const list = () =>
    createRegistry().invoke(runtime, 'deployments.list_deployments', { connection: 'v', input: {} });
  return { clock, store, list };
}

/** Adds to `scope` the listing the step sends, which must carry `accessToken`: an empty page. */
function listingWith(scope: nock.Scope, accessToken: string): nock.Scope {
  return scope
    .get('/v6/deployments')
    .query(true)
    .matchHeader('authorization', `Bearer ${accessToken}`)
    .reply(200, EMPTY_PAGE);
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('deployments connections: long-lived and refreshable tokens (provider-facts: both kinds)', () => {
  it('refreshes an expiring token at /login/oauth/token (form-encoded refresh_token grant) and saves the new pair', async () => {
    const fx = setUp({});
    await fx.store.update('v', (current) => ({
      ...current,
      secrets: { ...current.secrets, refreshToken: 'refresh-0123456789', clientSecret: 'app-secret-xyz' },
      expiresAt: fx.clock.now() + 60_000,
    }));
    // Past half the token's life: due for refresh before it is used.
    fx.clock.advance(45_000);
    let form: URLSearchParams | undefined;
    const refresh = nock(HOST)
      .post('/login/oauth/token', (body) => {
        form = new URLSearchParams(body as unknown as string);
        return true;
      })
      .matchHeader('content-type', 'application/x-www-form-urlencoded')
      .reply(200, {
        access_token: 'new-access-0123456789',
        refresh_token: 'refresh-rotated-0123',
        token_type: 'Bearer',
        expires_in: 3600,
      });
    const scope = listingWith(refresh, 'new-access-0123456789');
    await fx.list();
    expect(scope.isDone()).toBe(true);
    expect(Object.fromEntries(form ?? [])).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'refresh-0123456789',
      client_id: 'cl_app',
      client_secret: 'app-secret-xyz',
    });
    const saved = await fx.store.get('v');
    expect(saved?.secrets).toMatchObject({
      accessToken: 'new-access-0123456789',
      refreshToken: 'refresh-rotated-0123',
    });
    expect(saved?.expiresAt).toBe(fx.clock.now() + 3600_000);
  });

  it('never refreshes a long-lived integration token: no refresh token, no expiry, no token request', async () => {
    const fx = setUp({});
    fx.clock.advance(400 * 24 * 3600_000);
    const scope = listingWith(nock(HOST), 'old-access-0123456789');
    await fx.list();
    expect(scope.isDone()).toBe(true);
  });
});
