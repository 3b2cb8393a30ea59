import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN, HOST, nockTicketing } from '../../support/nock-ticketing.js';

const ticket = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  status: 'open',
  subject: `Ticket ${id}`,
  tags: [],
  custom_fields: [],
  ...extra,
});

/** Captures what crossed the wire for one interceptor. */
function capture() {
  const seen: { headers: Record<string, string | string[] | undefined>; body: unknown; path: string }[] = [];
  return {
    seen,
    record(this: { req: { headers: Record<string, string> } }, uri: string, body: unknown) {
      seen.push({ headers: { ...this.req.headers }, body, path: uri });
    },
  };
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('ticketing requests on the wire', () => {
  it('create_ticket: POST /api/v2/tickets.json with a ticket body, bearer auth, JSON headers', async () => {
    const fx = nockTicketing();
    const wire = capture();
    nock(HOST)
      .get('/api/v2/tickets.json')
      .query({ external_id: 'ext-1' })
      .reply(200, { tickets: [] })
      .post('/api/v2/tickets.json')
      .reply(function (uri, body) {
        wire.record.call(this as never, uri, body);
        return [
          201,
          { ticket: ticket(9, { priority: 'high', type: 'incident' }) },
          { location: `${HOST}/api/v2/tickets/9.json` },
        ];
      });
    const result = await fx.invoke('ticketing.create_ticket', {
      subject: 'VPN down',
      description: 'Nobody can connect.',
      priority: 'high',
      type: 'incident',
      assignee: 42,
      external_id: 'ext-1',
      tags: ['vpn'],
      custom_fields: [{ id: 360001, value: 'emea' }],
    });
    const [sent] = wire.seen;
    expect(sent?.headers).toMatchObject({
      authorization: `Bearer ${ACCESS_TOKEN}`,
      accept: 'application/json',
      'content-type': 'application/json',
    });
    expect(sent?.body).toEqual({
      ticket: {
        subject: 'VPN down',
        comment: { body: 'Nobody can connect.' },
        priority: 'high',
        type: 'incident',
        assignee_id: 42,
        external_id: 'ext-1',
        tags: ['vpn'],
        custom_fields: [{ id: 360001, value: 'emea' }],
      },
    });
    expect(result.variables).toEqual({ ticket_id: 9, status: 'open' });
    expect(result.output).toMatchObject({ recovered: false });
  });

  it('create_ticket sends an email assignee as assignee_email', async () => {
    const fx = nockTicketing();
    const scope = nock(HOST)
      .post(
        '/api/v2/tickets.json',
        (body) => body.ticket.assignee_email === 'sam@acme.example' && !('assignee_id' in body.ticket),
      )
      .reply(201, { ticket: ticket(10) });
    await fx.invoke('ticketing.create_ticket', {
      subject: 's',
      description: 'd',
      assignee: 'sam@acme.example',
    });
    expect(scope.isDone()).toBe(true);
  });

  it('get_ticket_info: the ticket with sideloaded users, then every page of comments', async () => {
    const fx = nockTicketing();
    const scope = nock(HOST)
      .get('/api/v2/tickets/5.json')
      .query({ include: 'users' })
      .reply(200, {
        ticket: ticket(5, { requester_id: 3, assignee_id: 2, priority: 'low' }),
        users: [
          { id: 2, name: 'Sam Agent', email: 'sam@acme.example', role: 'agent' },
          { id: 3, name: 'Riley', email: 'riley@customer.example', role: 'end-user' },
        ],
      })
      .get('/api/v2/tickets/5/comments.json')
      .query({ 'page[size]': '100', include: 'users' })
      .reply(200, {
        comments: [{ id: 1, author_id: 3, body: 'first', public: true }],
        users: [],
        meta: { has_more: true, after_cursor: 'c1' },
      })
      .get('/api/v2/tickets/5/comments.json')
      .query({ 'page[size]': '100', include: 'users', 'page[after]': 'c1' })
      .reply(200, {
        comments: [{ id: 2, author_id: 2, body: 'note', public: false }],
        meta: { has_more: false, after_cursor: null },
      });
    const result = await fx.invoke('ticketing.get_ticket_info', { ticket_id: '5' });
    expect(scope.isDone()).toBe(true);
    expect(result.output).toMatchObject({
      requester: { email: 'riley@customer.example' },
      assignee: { name: 'Sam Agent' },
      comments: [
        { body: 'first', public: true, author_name: 'Riley' },
        { body: 'note', public: false, author_name: 'Sam Agent' },
      ],
    });
    expect(result.variables).toMatchObject({
      requester_email: 'riley@customer.example',
      comments: ['first', 'note'],
    });
  });

  it('list_tickets without filters uses cursor paging on /tickets.json', async () => {
    const fx = nockTicketing();
    const scope = nock(HOST)
      .get('/api/v2/tickets.json')
      .query({ 'page[size]': '2', 'page[after]': 'abc' })
      .reply(200, { tickets: [ticket(1), ticket(2)], meta: { has_more: true, after_cursor: 'def' } });
    const result = await fx.invoke('ticketing.list_tickets', { limit: 2, cursor: 'abc' });
    expect(scope.isDone()).toBe(true);
    expect(result.output).toMatchObject({ has_more: true, next_cursor: 'def' });
  });

  // Major 1 names the range with two fields, major 2 with one object: the same request either way.
  const filtered = { status: 'open', priority: 'urgent', assignee: 'sam@acme.example' } as const;
  const majors = [
    ['list_tickets', () => ({ ...filtered, created: { after: '2026-01-01', before: '2026-02-01' } })],
    ['list_tickets@1', () => ({ ...filtered, created_after: '2026-01-01', created_before: '2026-02-01' })],
  ] as const;
  for (const [name, input] of majors) {
    it(`${name} with filters pages the search export with a built query`, async () => {
      const fx = nockTicketing();
      const scope = nock(HOST)
        .get('/api/v2/search/export.json')
        .query({
          // The type goes in filter[type] only: the provider refuses `type:` in an export query.
          query:
            'status:open priority:urgent assignee:sam@acme.example created>2026-01-01 created<2026-02-01',
          'filter[type]': 'ticket',
          'page[size]': '25',
        })
        .reply(200, {
          results: [{ ...ticket(3), result_type: 'ticket' }],
          meta: { has_more: false, after_cursor: 'zz' },
        });
      const result = await fx.invokeUnchecked(`ticketing.${name}`, input());
      expect(scope.isDone()).toBe(true);
      expect(result.output).toMatchObject({ has_more: false, next_cursor: null, tickets: [{ id: 3 }] });
    });
  }

  it('update_ticket: add and remove go to the ticket tags endpoint, replace_tags is the ticket tags; notes are private', async () => {
    const fx = nockTicketing();
    const wire = capture();
    const record = function (this: unknown, uri: string, body: unknown) {
      wire.record.call(this as never, uri, body);
      return [200, { tags: ['a'] }] as [number, unknown];
    };
    nock(HOST)
      .put('/api/v2/tickets/4/tags.json')
      .reply(function (uri, body) {
        return record.call(this, `PUT ${uri}`, body);
      })
      .delete('/api/v2/tickets/4/tags.json')
      .reply(function (uri, body) {
        return record.call(this, `DELETE ${uri}`, body);
      })
      .put('/api/v2/tickets/4.json')
      .times(2)
      .reply(function (uri, body) {
        wire.record.call(this as never, `PUT ${uri}`, body);
        return [200, { ticket: ticket(4) }];
      });
    await fx.invoke('ticketing.update_ticket', {
      ticket_id: 4,
      add_tags: ['a'],
      remove_tags: ['b'],
      internal_note: 'private',
    });
    await fx.invoke('ticketing.update_ticket', {
      ticket_id: 4,
      replace_tags: ['only'],
      priority: 'low',
      assignee: 2,
    });
    expect(wire.seen.map((entry) => [entry.path, entry.body])).toEqual([
      ['PUT /api/v2/tickets/4/tags.json', { tags: ['a'] }],
      ['DELETE /api/v2/tickets/4/tags.json', { tags: ['b'] }],
      ['PUT /api/v2/tickets/4.json', { ticket: { comment: { body: 'private', public: false } } }],
      ['PUT /api/v2/tickets/4.json', { ticket: { priority: 'low', assignee_id: 2, tags: ['only'] } }],
    ]);
  });

  it('update_ticket with tags only reads the ticket back for its output', async () => {
    const fx = nockTicketing();
    const scope = nock(HOST)
      .put('/api/v2/tickets/4/tags.json', { tags: ['vip'] })
      .reply(200, { tags: ['vip'] })
      .get('/api/v2/tickets/4.json')
      .reply(200, { ticket: ticket(4, { tags: ['vip'] }) });
    const result = await fx.invoke('ticketing.update_ticket', { ticket_id: 4, add_tags: ['vip'] });
    expect(scope.isDone()).toBe(true);
    expect(result.output).toMatchObject({ ticket: { id: 4, tags: ['vip'] } });
  });

  it('update_ticket with a reply and a note makes two updates, reply first', async () => {
    const fx = nockTicketing();
    const bodies: unknown[] = [];
    nock(HOST)
      .put('/api/v2/tickets/4.json')
      .times(2)
      .reply((_uri, body) => {
        bodies.push(body);
        return [200, { ticket: ticket(4, { status: 'solved' }) }];
      });
    const result = await fx.invoke('ticketing.update_ticket', {
      ticket_id: 4,
      status: 'solved',
      public_comment: 'Fixed.',
      internal_note: 'Root cause: DNS.',
    });
    expect(bodies).toEqual([
      { ticket: { status: 'solved', comment: { body: 'Fixed.', public: true } } },
      { ticket: { comment: { body: 'Root cause: DNS.', public: false } } },
    ]);
    expect(result.output).toMatchObject({ applied: { public_comment: true, internal_note: true } });
  });

  it('delete_ticket: DELETE and a 204', async () => {
    const fx = nockTicketing();
    const scope = nock(HOST).delete('/api/v2/tickets/8.json').reply(204);
    const result = await fx.invoke('ticketing.delete_ticket', { ticket_id: 8 });
    expect(scope.isDone()).toBe(true);
    expect(result.output).toEqual({ deleted: true, ticket_id: 8, already_done: false });
    expect(fx.registry.requireStep('ticketing.delete_ticket').access).toBe('destructive');
  });
});

describe('ticketing input rules: refused before any request', () => {
  const refused: [string, unknown][] = [
    ['ticketing.create_ticket', { description: 'no subject' }],
    ['ticketing.create_ticket', { subject: 'x', description: 'y', priority: 'critical' }],
    ['ticketing.create_ticket', { subject: 'x', description: 'y', assignee: 'not-an-email' }],
    ['ticketing.create_ticket', { subject: 'x', description: 'y', tags: ['two words'] }],
    ['ticketing.get_ticket_info', { ticket_id: -1 }],
    ['ticketing.get_ticket_info', { ticket_id: '1/../2' }],
    ['ticketing.update_ticket', { ticket_id: 1 }],
    ['ticketing.update_ticket', { ticket_id: 1, replace_tags: ['a'], add_tags: ['b'] }],
    ['ticketing.list_tickets', { limit: 101 }],
    ['ticketing.list_tickets', { created: { after: '2026-02-01', before: '2026-01-01' } }],
    ['ticketing.list_tickets@1', { created_after: '2026-02-01', created_before: '2026-01-01' }],
    // Major 1's fields are not major 2's: a saved input must name the major it was made with.
    ['ticketing.list_tickets', { created_after: '2026-01-01' }],
    ['ticketing.search_tickets', { query: '   ' }],
    ['ticketing.search_tickets', { query: 'x', limit: 1001 }],
  ];
  for (const [stepId, input] of refused) {
    it(`${stepId} refuses ${JSON.stringify(input)}`, async () => {
      const fx = nockTicketing();
      const error = await fx.invokeUnchecked(stepId, input).catch((e) => e);
      expect(error).toMatchObject({ name: 'InputError', code: 'input_invalid' });
      expect(error.fields.length).toBeGreaterThan(0);
      expect(nock.pendingMocks()).toEqual([]);
    });
  }

  for (const subdomain of [
    'evil.com#',
    'a.b',
    '127.0.0.1',
    '',
    '-acme',
    'a'.repeat(64),
    'acme/../x',
    'ac me',
  ]) {
    it(`refuses subdomain ${JSON.stringify(subdomain)} before any request`, async () => {
      const fx = nockTicketing({ connection: { fields: { subdomain } } });
      const error = await fx.invoke('ticketing.list_tickets', {}).catch((e) => e);
      expect(error).toMatchObject({ name: 'InputError', code: 'input_invalid' });
      expect(error.fields[0].path).toBe('subdomain');
    });
  }

  it('refuses a plain-http base URL that is not loopback', async () => {
    const fx = nockTicketing({
      connection: { fields: { subdomain: 'acme', baseUrl: 'http://gateway.example' } },
    });
    await expect(fx.invoke('ticketing.list_tickets', {})).rejects.toMatchObject({ code: 'input_invalid' });
  });

  it('an invalid variable mapping is refused before sending', async () => {
    const fx = nockTicketing();
    const error = await fx
      .invoke('ticketing.list_tickets', {}, { variables: { broken: '$.tickets[' } })
      .catch((e) => e);
    expect(error).toMatchObject({ code: 'input_invalid' });
    expect(error.fields[0].path).toBe('variables.broken');
  });
});
