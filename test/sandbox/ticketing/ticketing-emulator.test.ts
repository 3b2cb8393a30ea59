import { describe, expect, it } from 'vitest';
import { createPkcePair } from '../../../src/connection/pkce.js';
import { useFixture } from '../../support/fixture-lifecycle.js';
import { type TicketingFixture, ticketingFixture } from '../../support/ticketing-fixture.js';

async function seedTickets(fx: TicketingFixture, count: number, extra: Record<string, unknown> = {}) {
  const account = fx.sandbox.ticketing.account('acme');
  for (let index = 0; index < count; index += 1) {
    const id = account.newId('ticket');
    const at = new Date(fx.clock.now() + index * 1000).toISOString();
    account.tickets.set(id, {
      id,
      external_id: null,
      type: 'task',
      subject: `Bulk ticket ${index}`,
      raw_subject: `Bulk ticket ${index}`,
      description: 'bulk',
      priority: 'low',
      status: 'open',
      requester_id: 3,
      submitter_id: 3,
      assignee_id: null,
      organization_id: null,
      group_id: null,
      due_at: null,
      collaborator_ids: [],
      follower_ids: [],
      tags: ['bulk'],
      custom_fields: [],
      via: { channel: 'api' },
      created_at: at,
      updated_at: at,
      comments: [],
      ...extra,
    });
  }
}

describe('ticketing emulator', () => {
  const fx = useFixture(ticketingFixture);

  const search = async (query: string) =>
    (await fx.invoke('ticketing.search_tickets', { query })).output.tickets.map((t) => t.id);

  it('speaks the search language: fields, comparisons, phrases, negation, dates', async () => {
    expect(await search('status:open')).toEqual([1]);
    expect(await search('status<solved')).toEqual([1, 2, 3]);
    expect(await search('priority>normal')).toEqual([1]);
    expect(await search('priority>=normal')).toEqual([1, 2]);
    expect(await search('-status:new')).toEqual([1, 2]);
    expect(await search('tags:billing')).toEqual([2]);
    expect(await search('assignee:sam@acme.example')).toEqual([1]);
    expect(await search('assignee:none')).toEqual([3]);
    expect(await search('assignee:me')).toEqual([2]);
    expect(await search('"dark theme"')).toEqual([3]);
    expect(await search('invoice')).toEqual([2]);
    expect(await search('-"dark theme" -invoice')).toEqual([1]);
    expect(await search('ticket_type:question status:pending')).toEqual([2]);
    const tomorrow = new Date(fx.clock.now() + 86_400_000).toISOString().slice(0, 10);
    expect(await search(`created<${tomorrow}`)).toEqual([1, 2, 3]);
    expect(await search(`created>${tomorrow}`)).toEqual([]);
  });

  it('search stops at the 1,000-result cap and says the result was cut', async () => {
    await seedTickets(fx, 1200);
    const result = await fx.invoke('ticketing.search_tickets', { query: 'tags:bulk', limit: 1000 });
    expect(result.output).toMatchObject({
      count: 1200,
      returned: 1000,
      truncated: true,
      truncated_reason: 'provider_cap',
    });
    expect(result.meta.attempts).toBe(10);
    const limited = await fx.invoke('ticketing.search_tickets', { query: 'tags:bulk', limit: 150 });
    expect(limited.output).toMatchObject({ returned: 150, truncated: true, truncated_reason: 'limit' });
  });

  it('page 11 at 100 per page is a 422, as the provider answers', async () => {
    const result = await fx
      .invoke('ticketing.api_call', {
        method: 'GET',
        endpoint: '/api/v2/search.json?query=type:ticket&page=11&per_page=100',
      })
      .catch((e) => e);
    expect(result).toMatchObject({ status: 422, code: 'provider_rejected' });
  });

  it('list_tickets pages with a cursor through every ticket exactly once', async () => {
    await seedTickets(fx, 57);
    const ids: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await fx.invoke('ticketing.list_tickets', { limit: 20, cursor });
      ids.push(...page.output.tickets.map((t) => t.id));
      cursor = page.output.next_cursor ?? undefined;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(ids).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
  });

  it('filtered lists page through the export endpoint past 1,000 results', async () => {
    await seedTickets(fx, 1100, { priority: 'urgent' });
    let cursor: string | undefined;
    let total = 0;
    do {
      const page = await fx.invoke('ticketing.list_tickets', { priority: 'urgent', limit: 100, cursor });
      total += page.output.tickets.length;
      cursor = page.output.next_cursor ?? undefined;
    } while (cursor);
    expect(total).toBe(1100);
  });

  it('answers validation errors like the provider', async () => {
    const error = await fx
      .invoke('ticketing.create_ticket', {
        subject: 's',
        description: 'd',
        assignee: 'riley@customer.example',
      })
      .catch((e) => e);
    expect(error).toMatchObject({
      status: 422,
      code: 'provider_rejected',
      providerCode: 'RecordInvalid',
    });
    expect(error.fields[0].path).toBe('assignee');
  });

  it('sends rate-limit headers, and the gate waits before the request that would earn a 429', async () => {
    fx.sandbox.ticketing.limiter.limit = 3;
    const results = [];
    for (let i = 0; i < 5; i += 1) results.push(await fx.invoke('ticketing.list_tickets', { limit: 1 }));
    const headersSeen = results[0]?.meta.rateLimit;
    expect(headersSeen?.windows[0]).toMatchObject({ name: 'minute', limit: 3, remaining: 2 });
    // The third response said remaining 0 with a reset: the gate slept instead of earning a 429.
    expect(results.some((result) => result.meta.rateLimitWaits > 0)).toBe(true);
    // Five invocations, five requests: none was refused and sent again.
    expect(fx.sandbox.server.requestLog.length).toBe(5);
  });

  it('a 429 without a reset hint is retried after Retry-After', async () => {
    fx.sandbox.ticketing.limiter.limit = 1;
    // The single-ticket endpoint sends no ratelimit-reset, so the gate cannot foresee the limit.
    await fx.invoke('ticketing.api_call', { method: 'GET', endpoint: '/api/v2/tickets/1.json' });
    const second = await fx.invoke('ticketing.api_call', {
      method: 'GET',
      endpoint: '/api/v2/tickets/2.json',
    });
    expect(second.output).toMatchObject({ status: 200 });
    expect(second.meta.retries).toBeGreaterThanOrEqual(1);
    const tooMany = fx.sandbox.server.requestLog.filter((entry) => entry.path.includes('/tickets/2.json'));
    expect(tooMany.length).toBeGreaterThanOrEqual(2);
  });

  it('oauth: codes are single use and die after 120 s; PKCE and state are enforced', async () => {
    const base = fx.sandbox.baseUrl('ticketing', 'acme');
    const pkce = createPkcePair();
    const redirectUri = 'http://127.0.0.1:9/callback';
    const authorize = async () => {
      const url = new URL(`${base}/oauth/authorizations/new`);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: 'toolsteps-cli',
        redirect_uri: redirectUri,
        state: 'st4te',
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
      }).toString();
      const response = await fetch(url, { redirect: 'manual' });
      const location = new URL(response.headers.get('location')!);
      expect(location.searchParams.get('state')).toBe('st4te');
      return location.searchParams.get('code')!;
    };
    const exchange = (code: string, verifier = pkce.verifier) =>
      fetch(`${base}/oauth/tokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          grant_type: 'authorization_code',
          code,
          client_id: 'toolsteps-cli',
          redirect_uri: redirectUri,
          code_verifier: verifier,
        }),
      });
    const code = await authorize();
    expect((await exchange(code)).status).toBe(200);
    expect((await exchange(code)).status).toBe(400); // single use
    const stale = await authorize();
    fx.clock.advance(121_000);
    expect(await (await exchange(stale)).json()).toMatchObject({ error: 'invalid_grant' });
    const wrongVerifier = await authorize();
    expect((await exchange(wrongVerifier, createPkcePair().verifier)).status).toBe(400);
  });

  it('expired access tokens get a 401', async () => {
    fx.clock.advance(31 * 60_000);
    const response = await fetch(`${fx.sandbox.baseUrl('ticketing', 'acme')}/api/v2/tickets.json`, {
      headers: { authorization: `Bearer ${fx.connection.secrets.accessToken}` },
    });
    expect(response.status).toBe(401);
  });

  it('fault switches: fail the next N requests with a status', async () => {
    fx.sandbox.faults.add({ target: 'ticketing', count: 2, action: { kind: 'status', status: 500 } });
    const result = await fx.invoke('ticketing.list_tickets', {});
    expect(result.meta.retries).toBe(2);
  });
});
