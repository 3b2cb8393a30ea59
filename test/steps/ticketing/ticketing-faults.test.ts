import http from 'node:http';
import type { AddressInfo } from 'node:net';
import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { resetOnce } from '../../support/faults.js';
import { useFixture } from '../../support/fixture-lifecycle.js';
import { ACCESS_TOKEN, HOST, nockTicketing } from '../../support/nock-ticketing.js';
import { ticketingFixture } from '../../support/ticketing-fixture.js';

describe('ticketing under sandbox faults (real sockets)', () => {
  const fx = useFixture(ticketingFixture);

  const ticketCount = () => fx.sandbox.ticketing.account('acme').tickets.size;

  it('a create whose connection resets after the provider acted is not replayed: one ticket, outcome unknown', async () => {
    const before = ticketCount();
    fx.sandbox.faults.add(resetOnce({ target: 'ticketing', method: 'POST' }));
    const error = await fx
      .invoke('ticketing.create_ticket', { subject: 's', description: 'd' })
      .catch((e) => e);
    expect(error).toMatchObject({ code: 'network_error', retryable: false, outcome: 'unknown' });
    expect(ticketCount()).toBe(before + 1);
  });

  it('with external_id, the same reset resolves to the ticket that was created, and a second call finds it', async () => {
    const before = ticketCount();
    fx.sandbox.faults.add(resetOnce({ target: 'ticketing', method: 'POST' }));
    const first = await fx.invoke('ticketing.create_ticket', {
      subject: 's',
      description: 'd',
      external_id: 'x-1',
    });
    expect(first.output).toMatchObject({ recovered: true });
    const again = await fx.invoke('ticketing.create_ticket', {
      subject: 's',
      description: 'd',
      external_id: 'x-1',
    });
    expect(again.output).toMatchObject({ recovered: true });
    expect(ticketCount()).toBe(before + 1);
  });

  it('a reset before anything was processed on a read is retried', async () => {
    fx.sandbox.faults.add(resetOnce({ target: 'ticketing', method: 'GET' }, 'before'));
    const result = await fx.invoke('ticketing.list_tickets', {});
    expect(result.meta.retries).toBe(1);
  });

  it('a delete whose answer is lost is replayed and reported done', async () => {
    fx.sandbox.faults.add(resetOnce({ target: 'ticketing', method: 'DELETE' }));
    const result = await fx.invoke('ticketing.delete_ticket', { ticket_id: 1 });
    expect(result.output).toEqual({ deleted: true, ticket_id: 1, already_done: true });
  });

  it('search sends type:ticket, paging and sort on the wire', async () => {
    await fx.invoke('ticketing.search_tickets', {
      query: 'status:open',
      limit: 30,
      sort_by: 'created_at',
      sort_order: 'asc',
    });
    const sent = new URL(`http://x${fx.sandbox.server.requestLog.at(-1)!.path}`);
    expect(sent.pathname).toBe('/acme/api/v2/search.json');
    expect(Object.fromEntries(sent.searchParams)).toEqual({
      query: 'type:ticket status:open',
      page: '1',
      per_page: '30',
      sort_by: 'created_at',
      sort_order: 'asc',
    });
  });
});

describe('answers that break mid-way', () => {
  afterEach(() => nock.cleanAll());

  it('a body cut off mid-read is a network error, and a read is retried', async () => {
    let calls = 0;
    const server = http.createServer((_request, response) => {
      calls += 1;
      if (calls === 1) {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        response.write('{"tickets": [');
        setTimeout(() => response.socket?.destroy(), 5);
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ tickets: [], meta: { has_more: false } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    nock.enableNetConnect('127.0.0.1');
    try {
      const fx = nockTicketing({
        connection: {
          fields: {
            subdomain: 'acme',
            baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
          },
        },
      });
      const result = await fx.invoke('ticketing.list_tickets', {});
      expect(result.meta.retries).toBe(1);
      expect(calls).toBe(2);
    } finally {
      server.close();
    }
  });

  it('a read whose answer does not fit names the failing fields as paths of the answer, and no secret', async () => {
    nock.disableNetConnect();
    const fx = nockTicketing();
    nock(HOST)
      .get('/api/v2/users/3.json')
      .reply(200, { user: { id: 'three', name: 'Ann' } });
    const error = await fx.invoke('ticketing.get_user', { user_id: 3 }).catch((e) => e);
    expect(error).toMatchObject({ name: 'OutputError', code: 'output_invalid', sent: true });
    expect(error.fields[0].path).toBe('answer.user.id');
    expect(error.message).toMatch(
      /^GET \/api\/v2\/users\/3\.json answered in a shape this step cannot read: answer\.user\.id/,
    );
    expect(JSON.stringify(error)).not.toContain(ACCESS_TOKEN);
  });

  it('an answer a write step cannot read is an OutputError that says the write took effect', async () => {
    nock.disableNetConnect();
    const fx = nockTicketing();
    nock(HOST)
      .post('/api/v2/tickets.json')
      .reply(201, { ticket: { id: 9, status: 'escalated', tags: [], custom_fields: [] } });
    const error = await fx
      .invoke('ticketing.create_ticket', { subject: 's', description: 'd' })
      .catch((e) => e);
    expect(error).toMatchObject({ name: 'OutputError', code: 'output_invalid', retryable: false });
    expect(error.outcome).toBe('already_done');
    expect(error.fields[0].path).toContain('status');
  });
});
