import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AuthError } from '../../../src/errors/index.js';
import { rejectFailures } from '../../../src/http/classify-failures.js';
import type { Exchange, HttpRequest } from '../../../src/http/exchange.js';
import { type BoundCredentials, withAuthRefresh } from '../../../src/http/http-client.js';
import { PROBE, probe, probeAttempt, probeConnection, probeOutgoing } from '../../support/probe-transport.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

/** Credentials whose refresh swaps in the next key, as a token refresh would. */
function rotating(keys: string[]): BoundCredentials & { refreshes: number } {
  let current = probeConnection(keys[0]);
  const credentials = {
    refreshes: 0,
    current: () => current,
    refresh: async () => {
      credentials.refreshes += 1;
      current = probeConnection(keys[credentials.refreshes]);
      return current;
    },
  };
  return credentials;
}

function client(credentials: BoundCredentials) {
  const { send, clock } = probeAttempt();
  const classified = rejectFailures(send, {
    integration: probe,
    redact: (text) => text,
    secrets: () => ['probe-key-0001'],
    now: () => clock.now(),
    connection: () => credentials.current(),
    canRefresh: credentials.refresh !== undefined,
  });
  return withAuthRefresh(
    (request: HttpRequest): Promise<Exchange> => classified(probeOutgoing(request, credentials.current())),
    credentials,
  );
}

describe('withAuthRefresh: a 401 refreshes once and replays once', () => {
  it('replays with the new credential after one refresh', async () => {
    const credentials = rotating(['old-key-0001', 'new-key-0002']);
    nock(PROBE, { reqheaders: { authorization: 'Bearer old-key-0001' } })
      .post('/api/things')
      .reply(401, { message: 'expired' });
    const replay = nock(PROBE, { reqheaders: { authorization: 'Bearer new-key-0002' } })
      .post('/api/things')
      .reply(201, { id: 1 });
    const result = await client(credentials)({ method: 'POST', path: '/things', body: {} });
    expect(replay.isDone()).toBe(true);
    expect(result).toMatchObject({ ok: true, answer: { status: 201 } });
    expect(credentials.refreshes).toBe(1);
    expect(result.stats.attempts).toBe(2);
  });

  it('asks for re-authorisation when the refreshed credential is refused too', async () => {
    const credentials = rotating(['old-key-0001', 'new-key-0002']);
    nock(PROBE).get('/api/things').times(2).reply(401, { message: 'no' });
    const result = await client(credentials)({ method: 'GET', path: '/things' });
    const error = (result as { error: AuthError }).error;
    expect(error).toBeInstanceOf(AuthError);
    expect(error.code).toBe('reauthorization_required');
    expect(error.message).toMatch(
      /refreshed and still refused: connection "probe-main" needs re-authorisation/,
    );
    expect(credentials.refreshes).toBe(1);
  });

  it('without a way to refresh, a 401 says which credential was refused', async () => {
    const credentials: BoundCredentials = { current: () => probeConnection() };
    nock(PROBE).get('/api/things').reply(401, { message: 'bad key' });
    const result = await client(credentials)({ method: 'GET', path: '/things' });
    const error = (result as { error: AuthError }).error;
    expect(error.code).toBe('reauthorization_required');
    expect(error.message).toMatch(/API key of connection "probe-main" was not accepted/);
    expect(result.stats.attempts).toBe(1);
  });

  it('passes every other failure through untouched', async () => {
    const credentials = rotating(['old-key-0001', 'new-key-0002']);
    nock(PROBE).get('/api/things').reply(403, { message: 'forbidden' });
    const result = await client(credentials)({ method: 'GET', path: '/things' });
    expect((result as { error: { code: string } }).error.code).toBe('permission_denied');
    expect(credentials.refreshes).toBe(0);
  });
});
