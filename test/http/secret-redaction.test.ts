import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN, HOST, nockTicketing, REFRESH_TOKEN } from '../support/nock-ticketing.js';
import { everyView, expectNoSecret as expectNoneOf } from '../support/secret-views.js';

const SECRETS = [ACCESS_TOKEN, REFRESH_TOKEN, 'client-secret-value-xyz'];

const expectNoSecret = (text: string) => expectNoneOf(text, SECRETS);

/** delete_ticket of ticket 7 against a provider that answers the DELETE as `answer` scripts it: the error it fails with. */
async function deleteFailure(answer: (request: nock.Interceptor) => nock.Scope) {
  const fx = nockTicketing();
  answer(nock(HOST).delete('/api/v2/tickets/7.json'));
  return fx.invoke('ticketing.delete_ticket', { ticket_id: 7 }).catch((e) => e);
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('secrets never leave the connection store', () => {
  it('redacts a token a provider echoes back in an error body', async () => {
    const fx = nockTicketing();
    nock(HOST)
      .get('/api/v2/tickets/7.json')
      .query(true)
      .reply(422, {
        error: 'RecordInvalid',
        description: `bad header Bearer ${ACCESS_TOKEN} and ${REFRESH_TOKEN}`,
      });
    const error = await fx.invoke('ticketing.get_ticket_info', { ticket_id: 7 }).catch((e) => e);
    expect(error.code).toBe('provider_rejected');
    expect(error.message).toContain('[redacted]');
    expectNoSecret(everyView(error));
  });

  it('redacts a plain-text echo and URL-encoded forms', async () => {
    const error = await deleteFailure((request) =>
      request.reply(400, `token=${encodeURIComponent(ACCESS_TOKEN)}`, { 'content-type': 'text/plain' }),
    );
    expectNoSecret(everyView(error));
  });

  it('network failures carry no request details in their cause', async () => {
    const error = await deleteFailure((request) =>
      request.times(4).replyWithError({
        code: 'ECONNRESET',
        message: `reset while sending Authorization: Bearer ${ACCESS_TOKEN}`,
      }),
    );
    expect(error.code).toBe('network_error');
    expectNoSecret(everyView(error));
  });

  it('token endpoint failures redact the refresh token and client secret', async () => {
    const error = await deleteFailure((request) =>
      request
        .reply(401, {})
        .post('/oauth/tokens')
        .reply(400, {
          error: 'invalid_grant',
          error_description: `refresh_token ${REFRESH_TOKEN} unknown (client-secret-value-xyz)`,
        }),
    );
    expect(error.code).toBe('reauthorization_required');
    expectNoSecret(everyView(error));
  });

  it('redacts field-level messages and provider codes', async () => {
    const error = await deleteFailure((request) =>
      request.reply(422, {
        error: `Invalid_${ACCESS_TOKEN}`,
        description: 'Record validation errors',
        details: {
          base: [{ description: `header was Bearer ${ACCESS_TOKEN}` }],
          [REFRESH_TOKEN]: [{ description: 'x' }],
        },
      }),
    );
    expect(error.fields.length).toBe(2);
    expectNoSecret(everyView(error));
  });

  it('logs and outputs hold no secret, even for an API call whose answer reflects the request headers', async () => {
    const fx = nockTicketing();
    nock(HOST)
      .get('/api/v2/users/me.json')
      .reply(function () {
        return [200, { echoed_headers: this.req.headers }];
      })
      .get('/api/v2/tickets.json')
      .query(true)
      .reply(503, 'busy')
      .get('/api/v2/tickets.json')
      .query(true)
      .reply(200, { tickets: [], meta: { has_more: false } });
    const call = await fx.invoke('ticketing.api_call', { method: 'GET', endpoint: '/api/v2/users/me.json' });
    const list = await fx.invoke('ticketing.list_tickets', {});
    expectNoSecret(JSON.stringify([call, list]));
    expect(fx.logger.lines.length).toBeGreaterThan(0);
    expectNoSecret(JSON.stringify(fx.logger.lines));
  });

  it('a public connection given to handlers has no secrets', async () => {
    const { toPublicConnection } = await import('../../src/model/connection.js');
    const fx = nockTicketing();
    const connection = await fx.store.get('acme');
    const view = toPublicConnection(connection!);
    expect(view).not.toHaveProperty('secrets');
    expectNoSecret(JSON.stringify(view));
  });
});
