import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/model/clock.js';
import { HOST, nockTicketing } from '../support/nock-ticketing.js';

const ticket = { id: 7, status: 'open', subject: 'x', tags: [], custom_fields: [] };
const createInput = { subject: 'Help', description: 'It broke.' };

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  nock.cleanAll();
});

describe('429 and 503 wait for Retry-After', () => {
  it('waits the seconds Retry-After gives, then succeeds', async () => {
    const fx = nockTicketing();
    const scope = nock(HOST)
      .get('/api/v2/tickets/7.json')
      .query(true)
      .reply(429, 'Too Many Requests', { 'retry-after': '7', 'content-type': 'text/plain' })
      .get('/api/v2/tickets/7.json')
      .query(true)
      .reply(200, { ticket, users: [] })
      .get('/api/v2/tickets/7/comments.json')
      .query(true)
      .reply(200, { comments: [], meta: { has_more: false } });
    const result = await fx.invoke('ticketing.get_ticket_info', { ticket_id: 7 });
    expect(scope.isDone()).toBe(true);
    expect(fx.clock.sleeps).toEqual([7000]);
    expect(result.meta.retries).toBe(1);
    expect(result.meta.attempts).toBe(3);
  });

  it('reads Retry-After as an HTTP-date', async () => {
    const fx = nockTicketing();
    const when = new Date(fx.clock.now() + 12_000).toUTCString();
    nock(HOST)
      .delete('/api/v2/tickets/7.json')
      .reply(503, { error: 'unavailable' }, { 'retry-after': when })
      .delete('/api/v2/tickets/7.json')
      .reply(204);
    await fx.invoke('ticketing.delete_ticket', { ticket_id: 7 });
    expect(fx.clock.sleeps).toHaveLength(1);
    expect(fx.clock.sleeps[0]).toBeGreaterThanOrEqual(11_000);
    expect(fx.clock.sleeps[0]).toBeLessThanOrEqual(12_000);
  });

  it('retries a 429 on a non-idempotent create: the provider did not act on it', async () => {
    const fx = nockTicketing();
    const scope = nock(HOST)
      .post('/api/v2/tickets.json')
      .reply(429, 'slow down', { 'retry-after': '2' })
      .post('/api/v2/tickets.json')
      .reply(201, { ticket });
    await fx.invoke('ticketing.create_ticket', createInput);
    expect(scope.isDone()).toBe(true);
    expect(fx.clock.sleeps).toEqual([2000]);
  });

  it('fails at once with retryAfterMs when Retry-After exceeds the cap', async () => {
    const fx = nockTicketing();
    const scope = nock(HOST).delete('/api/v2/tickets/7.json').reply(429, 'later', { 'retry-after': '3600' });
    const error = await fx.invoke('ticketing.delete_ticket', { ticket_id: 7 }).catch((e) => e);
    expect(error).toMatchObject({
      name: 'RateLimitError',
      code: 'rate_limited',
      retryAfterMs: 3_600_000,
      status: 429,
    });
    expect(scope.isDone()).toBe(true);
    expect(fx.clock.sleeps).toEqual([]);
  });

  it('honours a lower cap set on the runtime', async () => {
    const fx = nockTicketing({ runtime: { retry: { maxRetryAfterMs: 5_000, random: () => 0.5 } } });
    nock(HOST).delete('/api/v2/tickets/7.json').reply(429, 'later', { 'retry-after': '6' });
    await expect(fx.invoke('ticketing.delete_ticket', { ticket_id: 7 })).rejects.toMatchObject({
      retryAfterMs: 6000,
    });
  });

  it('backs off exponentially with jitter when no Retry-After is given, at most 3 retries', async () => {
    const fx = nockTicketing({ runtime: { retry: { random: () => 1 } } });
    const scope = nock(HOST).delete('/api/v2/tickets/7.json').times(4).reply(429, 'slow');
    const error = await fx.invoke('ticketing.delete_ticket', { ticket_id: 7 }).catch((e) => e);
    expect(scope.isDone()).toBe(true);
    expect(error).toMatchObject({ code: 'rate_limited', status: 429 });
    // base 500 ms doubling; equal jitter with random()=1 gives the full ceiling.
    expect(fx.clock.sleeps).toEqual([500, 1000, 2000]);
  });

  it('jitter spreads waits between half and all of the ceiling', async () => {
    const fx = nockTicketing({ runtime: { retry: { random: () => 0 } } });
    nock(HOST)
      .delete('/api/v2/tickets/7.json')
      .times(2)
      .reply(503, 'busy')
      .delete('/api/v2/tickets/7.json')
      .reply(204);
    await fx.invoke('ticketing.delete_ticket', { ticket_id: 7 });
    expect(fx.clock.sleeps).toEqual([250, 500]);
  });

  it('an AbortSignal cancels a pending wait at once', async () => {
    // A clock whose sleep only ends by abort: if the signal did not cut the wait, this test would hang.
    const stuck: Clock = {
      now: () => Date.UTC(2026, 0, 1),
      sleep: (_ms, signal) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(new Error('aborted in sleep')), { once: true });
        }),
    };
    const fx = nockTicketing({ runtime: { clock: stuck } });
    nock(HOST).delete('/api/v2/tickets/7.json').reply(429, 'later', { 'retry-after': '30' });
    const controller = new AbortController();
    const pending = fx.invoke('ticketing.delete_ticket', { ticket_id: 7 }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    await expect(pending).rejects.toMatchObject({ name: 'AbortedError', code: 'aborted' });
  });
});

describe('5xx and connection failures are retried only when replay is safe', () => {
  for (const status of [500, 502, 504]) {
    it(`retries ${status} on an idempotent GET`, async () => {
      const fx = nockTicketing();
      const scope = nock(HOST)
        .get('/api/v2/tickets.json')
        .query(true)
        .reply(status, { error: 'boom' })
        .get('/api/v2/tickets.json')
        .query(true)
        .reply(200, { tickets: [ticket], meta: { has_more: false, after_cursor: null } });
      const result = await fx.invoke('ticketing.list_tickets', {});
      expect(scope.isDone()).toBe(true);
      expect(result.meta.retries).toBe(1);
    });

    it(`never replays Create Ticket after a ${status}`, async () => {
      const fx = nockTicketing();
      const scope = nock(HOST).post('/api/v2/tickets.json').reply(status, { error: 'boom' });
      const error = await fx.invoke('ticketing.create_ticket', createInput).catch((e) => e);
      expect(scope.isDone()).toBe(true);
      expect(error).toMatchObject({ code: 'provider_error', status });
      expect(error.outcome).toBe('unknown');
      expect(nock.pendingMocks()).toEqual([]);
    });
  }

  it('never replays Create Ticket after a connection reset (bytes may have arrived)', async () => {
    const fx = nockTicketing();
    const scope = nock(HOST)
      .post('/api/v2/tickets.json')
      .replyWithError({ code: 'ECONNRESET', message: 'socket hang up' });
    const error = await fx.invoke('ticketing.create_ticket', createInput).catch((e) => e);
    expect(scope.isDone()).toBe(true);
    expect(error).toMatchObject({ code: 'network_error', retryable: false });
    expect(error).toMatchObject({ transportCode: 'ECONNRESET', sent: 'unknown', outcome: 'unknown' });
  });

  it('retries Create Ticket when the connection was refused before anything was sent', async () => {
    const fx = nockTicketing();
    const scope = nock(HOST)
      .post('/api/v2/tickets.json')
      .replyWithError({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' })
      .post('/api/v2/tickets.json')
      .reply(201, { ticket });
    const result = await fx.invoke('ticketing.create_ticket', createInput);
    expect(scope.isDone()).toBe(true);
    expect(result.meta.retries).toBe(1);
  });

  it('retries a reset GET', async () => {
    const fx = nockTicketing();
    const scope = nock(HOST)
      .get('/api/v2/tickets.json')
      .query(true)
      .replyWithError({ code: 'ECONNRESET', message: 'reset' })
      .get('/api/v2/tickets.json')
      .query(true)
      .reply(200, { tickets: [], meta: { has_more: false } });
    await fx.invoke('ticketing.list_tickets', {});
    expect(scope.isDone()).toBe(true);
  });

  it('resolves an ambiguous create by its external_id instead of creating a duplicate', async () => {
    const fx = nockTicketing();
    const scope = nock(HOST)
      .get('/api/v2/tickets.json')
      .query({ external_id: 'req-42' })
      .reply(200, { tickets: [] })
      .post('/api/v2/tickets.json')
      .replyWithError({ code: 'ECONNRESET', message: 'reset' })
      .get('/api/v2/tickets.json')
      .query({ external_id: 'req-42' })
      .reply(200, { tickets: [{ ...ticket, external_id: 'req-42' }] });
    const result = await fx.invoke('ticketing.create_ticket', { ...createInput, external_id: 'req-42' });
    expect(scope.isDone()).toBe(true);
    expect(result.output).toMatchObject({ recovered: true, ticket: { id: 7 } });
  });

  it('a retried Create Ticket with the same external_id finds the ticket instead of creating another', async () => {
    const fx = nockTicketing();
    const scope = nock(HOST)
      .get('/api/v2/tickets.json')
      .query({ external_id: 'req-43' })
      .reply(200, { tickets: [{ ...ticket, external_id: 'req-43' }] });
    const result = await fx.invoke('ticketing.create_ticket', { ...createInput, external_id: 'req-43' });
    expect(scope.isDone()).toBe(true);
    expect(result.output).toMatchObject({ recovered: true });
    expect(nock.pendingMocks()).toEqual([]);
  });

  it('keeps the create error when the follow-up lookup fails too', async () => {
    const fx = nockTicketing();
    nock(HOST)
      .get('/api/v2/tickets.json')
      .query({ external_id: 'req-44' })
      .reply(200, { tickets: [] })
      .post('/api/v2/tickets.json')
      .reply(504, 'gateway timeout')
      .get('/api/v2/tickets.json')
      .query({ external_id: 'req-44' })
      .times(4)
      .reply(500, 'down');
    const error = await fx
      .invoke('ticketing.create_ticket', { ...createInput, external_id: 'req-44' })
      .catch((e) => e);
    expect(error).toMatchObject({ status: 504, retryable: false, outcome: 'unknown' });
    expect(error.context.lookup).toMatchObject({ status: 500 });
  });

  it('a retried DELETE that finds the ticket gone reports it done, not missing', async () => {
    const fx = nockTicketing();
    const scope = nock(HOST)
      .delete('/api/v2/tickets/7.json')
      .reply(504, 'gateway timeout')
      .delete('/api/v2/tickets/7.json')
      .reply(404, { error: 'RecordNotFound', description: 'Not found' });
    const result = await fx.invoke('ticketing.delete_ticket', { ticket_id: 7 });
    expect(scope.isDone()).toBe(true);
    expect(result.output).toEqual({ deleted: true, ticket_id: 7, already_done: true });
    nock(HOST).delete('/api/v2/tickets/8.json').reply(404, { error: 'RecordNotFound' });
    await expect(fx.invoke('ticketing.delete_ticket', { ticket_id: 8 })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('a 503 without Retry-After is final for a create, and retried for a read', async () => {
    const fx = nockTicketing();
    nock(HOST).post('/api/v2/tickets.json').reply(503, 'unavailable');
    const error = await fx.invoke('ticketing.create_ticket', createInput).catch((e) => e);
    expect(error).toMatchObject({ status: 503, retryable: false, outcome: 'unknown' });
    expect(nock.pendingMocks()).toEqual([]);
    const scope = nock(HOST)
      .delete('/api/v2/tickets/7.json')
      .reply(503, 'unavailable')
      .delete('/api/v2/tickets/7.json')
      .reply(204);
    await fx.invoke('ticketing.delete_ticket', { ticket_id: 7 });
    expect(scope.isDone()).toBe(true);
  });

  it('an update that adds a comment is not replayed; one that only sets fields is', async () => {
    const fx = nockTicketing();
    nock(HOST).put('/api/v2/tickets/7.json').reply(502, 'bad gateway');
    await expect(
      fx.invoke('ticketing.update_ticket', { ticket_id: 7, public_comment: 'hi' }),
    ).rejects.toMatchObject({
      status: 502,
    });
    expect(nock.pendingMocks()).toEqual([]);
    const scope = nock(HOST)
      .put('/api/v2/tickets/7.json')
      .reply(502, 'bad gateway')
      .put('/api/v2/tickets/7.json')
      .reply(200, { ticket });
    await fx.invoke('ticketing.update_ticket', { ticket_id: 7, status: 'open' });
    expect(scope.isDone()).toBe(true);
  });
});

describe('client errors are final', () => {
  for (const status of [400, 403, 404, 409, 422]) {
    it(`does not retry ${status}`, async () => {
      const fx = nockTicketing();
      const scope = nock(HOST)
        .get('/api/v2/tickets.json')
        .query(true)
        .reply(status, { error: 'RecordInvalid', description: 'nope' });
      const error = await fx.invoke('ticketing.list_tickets', {}).catch((e) => e);
      expect(scope.isDone()).toBe(true);
      expect(error.status).toBe(status);
      expect(error.retryable).toBe(false);
      expect(fx.clock.sleeps).toEqual([]);
    });
  }

  it('classifies each status into the error family', async () => {
    const fx = nockTicketing();
    const expectations: [number, string, string][] = [
      [403, 'PermissionError', 'permission_denied'],
      [404, 'NotFoundError', 'not_found'],
      [409, 'ProviderError', 'conflict'],
      [422, 'ProviderError', 'provider_rejected'],
    ];
    for (const [status, name, code] of expectations) {
      nock(HOST)
        .delete('/api/v2/tickets/7.json')
        .reply(status, {
          error: 'RecordInvalid',
          description: 'Record validation errors',
          details: { subject: [{ description: 'Subject: cannot be blank' }] },
        });
      const error = await fx.invoke('ticketing.delete_ticket', { ticket_id: 7 }).catch((e) => e);
      expect(error).toMatchObject({ name, code, status });
      expect(error.message).toContain('DELETE /api/v2/tickets/7.json');
      expect(error.fields).toEqual([{ path: 'subject', message: 'Subject: cannot be blank' }]);
    }
  });
});

describe('401 refreshes once and replays once', () => {
  it('refreshes the token and replays the request', async () => {
    const fx = nockTicketing();
    const scope = nock(HOST)
      .delete('/api/v2/tickets/7.json')
      .matchHeader('authorization', /^Bearer at-secret/)
      .reply(401, { error: 'invalid_token' })
      .post(
        '/oauth/tokens',
        (body) => body.grant_type === 'refresh_token' && body.client_secret === 'client-secret-value-xyz',
      )
      .reply(200, {
        access_token: 'new-access-token-1',
        refresh_token: 'new-refresh-token-1',
        expires_in: 1800,
      })
      .delete('/api/v2/tickets/7.json')
      .matchHeader('authorization', 'Bearer new-access-token-1')
      .reply(204);
    await fx.invoke('ticketing.delete_ticket', { ticket_id: 7 });
    expect(scope.isDone()).toBe(true);
    const stored = await fx.store.get('acme');
    expect(stored?.secrets).toMatchObject({
      accessToken: 'new-access-token-1',
      refreshToken: 'new-refresh-token-1',
    });
  });

  it('a second 401 after the refresh is an AuthError asking for re-authorisation', async () => {
    const fx = nockTicketing();
    const scope = nock(HOST)
      .delete('/api/v2/tickets/7.json')
      .reply(401, { error: 'invalid_token' })
      .post('/oauth/tokens')
      .reply(200, {
        access_token: 'new-access-token-2',
        refresh_token: 'new-refresh-token-2',
        expires_in: 1800,
      })
      .delete('/api/v2/tickets/7.json')
      .reply(401, { error: 'invalid_token' });
    const error = await fx.invoke('ticketing.delete_ticket', { ticket_id: 7 }).catch((e) => e);
    expect(scope.isDone()).toBe(true);
    expect(error).toMatchObject({ name: 'AuthError', code: 'reauthorization_required', status: 401 });
    expect(error.message).toMatch(/needs re-authorisation/);
  });

  it('a refused refresh (invalid_grant) asks for re-authorisation and sends nothing more', async () => {
    const fx = nockTicketing();
    nock(HOST)
      .delete('/api/v2/tickets/7.json')
      .reply(401, { error: 'invalid_token' })
      .post('/oauth/tokens')
      .reply(400, {
        error: 'invalid_grant',
        error_description: 'The refresh token is invalid or was already used.',
      });
    const error = await fx.invoke('ticketing.delete_ticket', { ticket_id: 7 }).catch((e) => e);
    expect(error).toMatchObject({ code: 'reauthorization_required' });
    expect(nock.pendingMocks()).toEqual([]);
  });
});
