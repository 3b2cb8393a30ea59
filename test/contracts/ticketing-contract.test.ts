import { describe, expect, it } from 'vitest';
import { useFixture } from '../support/fixture-lifecycle.js';
import { contractFixture } from './support/contract-fixture.js';
import { exchangeProblems, expectConforming, zendeskSupport } from './support/provider-contracts.js';

const fx = useFixture(contractFixture, 'all');

describe('ticketing steps against the provider description (requests and the sandbox answers)', () => {
  it('create_ticket', async () => {
    const { exchanges } = await fx.exchangesOf('ticketing.create_ticket', {
      subject: 'VPN down',
      description: 'Nobody can connect.',
      priority: 'high',
      type: 'incident',
      assignee: 'sam@acme.example',
      external_id: 'contract-1',
      tags: ['vpn'],
      custom_fields: [{ id: 360001, value: 'emea' }],
    });
    expect(exchanges.map((exchange) => exchange.method)).toEqual(['GET', 'POST']);
    expectConforming(exchanges);
  });

  it('get_ticket_info', async () => {
    expectConforming((await fx.exchangesOf('ticketing.get_ticket_info', { ticket_id: 1 })).exchanges);
  });

  it('list_tickets, unfiltered and cursor-paged', async () => {
    const first = await fx.exchangesOf('ticketing.list_tickets', { limit: 2 });
    const cursor = (first.output as { next_cursor: string }).next_cursor;
    const second = await fx.exchangesOf('ticketing.list_tickets', { limit: 2, cursor });
    expectConforming([...first.exchanges, ...second.exchanges]);
  });

  it('list_tickets, filtered through the search export', async () => {
    const { exchanges } = await fx.exchangesOf('ticketing.list_tickets', {
      status: 'open',
      priority: 'high',
    });
    expectConforming(exchanges);
  });

  it('list_tickets: the type goes only in filter[type], never in the export query (the description: "Searches with type in the query string will result in an error")', async () => {
    const { exchanges } = await fx.exchangesOf('ticketing.list_tickets', { status: 'open' });
    const [exported] = exchanges;
    expect(exported?.query.get('filter[type]')).toBe('ticket');
    expect(exported?.query.get('query')).not.toMatch(/(^|\s)-?type:/);
    expect(exported?.query.get('query')).toBe('status:open');
  });

  it('search_tickets, sorted', async () => {
    const { exchanges } = await fx.exchangesOf('ticketing.search_tickets', {
      query: 'status:open',
      sort_by: 'created_at',
      sort_order: 'asc',
    });
    expectConforming(exchanges);
  });

  it('update_ticket: fields, a reply and a note', async () => {
    const { exchanges } = await fx.exchangesOf('ticketing.update_ticket', {
      ticket_id: 1,
      status: 'pending',
      priority: 'urgent',
      subject: 'Cannot log in (SSO)',
      assignee: 2,
      replace_tags: ['login', 'sso'],
      public_comment: 'Looking into it.',
      internal_note: 'Probably the IdP certificate.',
      custom_fields: [{ id: 360001, value: 'apac' }],
    });
    expectConforming(exchanges);
  });

  it('update_ticket: add_tags and remove_tags go through the ticket tags endpoint, not the ticket PUT', async () => {
    const { output, exchanges } = await fx.exchangesOf('ticketing.update_ticket', {
      ticket_id: 2,
      add_tags: ['refund', 'vip'],
      remove_tags: ['billing'],
    });
    expectConforming(exchanges);
    const tagCalls = exchanges.filter((exchange) => /\/tags(\.json)?$/.test(exchange.path));
    expect(tagCalls.map((exchange) => [exchange.method, exchange.body])).toEqual([
      ['PUT', { tags: ['refund', 'vip'] }],
      ['DELETE', { tags: ['billing'] }],
    ]);
    expect((output as { ticket: { tags: string[] } }).ticket.tags.sort()).toEqual(['refund', 'vip']);
  });

  it('update_ticket: tags with other fields, and no undescribed ticket fields anywhere', async () => {
    const { exchanges } = await fx.exchangesOf('ticketing.update_ticket', {
      ticket_id: 1,
      status: 'open',
      add_tags: ['escalated'],
    });
    expectConforming(exchanges);
    for (const exchange of exchanges) {
      const ticket = (exchange.body as { ticket?: Record<string, unknown> } | undefined)?.ticket ?? {};
      expect(Object.keys(ticket)).not.toContain('additional_tags');
      expect(Object.keys(ticket)).not.toContain('remove_tags');
    }
  });

  it('delete_ticket', async () => {
    const created = await fx.invoke('ticketing.create_ticket', {
      subject: 'Throwaway',
      description: 'To delete.',
    });
    expectConforming(
      (await fx.exchangesOf('ticketing.delete_ticket', { ticket_id: created.output.ticket.id })).exchanges,
    );
  });

  it('api_call: users and organizations paths', async () => {
    const users = await fx.exchangesOf('ticketing.api_call', {
      method: 'GET',
      endpoint: '/api/v2/users.json',
    });
    const organizations = await fx.exchangesOf('ticketing.api_call', {
      method: 'GET',
      endpoint: '/api/v2/organizations.json',
    });
    const user = await fx.exchangesOf('ticketing.api_call', {
      method: 'GET',
      endpoint: '/api/v2/users/1.json',
    });
    expectConforming([...users.exchanges, ...organizations.exchanges, ...user.exchanges]);
  });
});

describe('ticketing API Call: every method of the spec, and the users and organizations paths', () => {
  it('POST and PUT a user, read it and an organization', async () => {
    const created = await fx.exchangesOf('ticketing.api_call', {
      method: 'POST',
      endpoint: '/api/v2/users.json',
      body: { user: { name: 'Jo Customer', email: 'jo@customer.example', role: 'end-user' } },
    });
    const id = (created.output as { body: { user: { id: number } } }).body.user.id;
    const updated = await fx.exchangesOf('ticketing.api_call', {
      method: 'PUT',
      endpoint: `/api/v2/users/${id}.json`,
      body: { user: { name: 'Jo Q. Customer' } },
    });
    expect((updated.output as { body: { user: { name: string } } }).body.user.name).toBe('Jo Q. Customer');
    const organizations = await fx.exchangesOf('ticketing.api_call', {
      method: 'GET',
      endpoint: '/api/v2/organizations.json',
    });
    const orgId = (organizations.output as { body: { organizations: { id: number }[] } }).body
      .organizations[0]?.id;
    const organization = await fx.exchangesOf('ticketing.api_call', {
      method: 'GET',
      endpoint: `/api/v2/organizations/${orgId}.json`,
    });
    expectConforming([...created.exchanges, ...updated.exchanges, ...organization.exchanges]);
  });

  it('PATCH a webhook and DELETE a ticket', async () => {
    const webhook = await fx.exchangesOf('ticketing.api_call', {
      method: 'POST',
      endpoint: '/api/v2/webhooks',
      body: {
        webhook: {
          name: 'agents',
          endpoint: 'http://127.0.0.1:9/hooks/x',
          http_method: 'POST',
          request_format: 'json',
          status: 'active',
          subscriptions: ['zen:event-type:ticket.created'],
        },
      },
    });
    const webhookId = (webhook.output as { body: { webhook: { id: string } } }).body.webhook.id;
    const patched = await fx.exchangesOf('ticketing.api_call', {
      method: 'PATCH',
      endpoint: `/api/v2/webhooks/${webhookId}`,
      body: { webhook: { status: 'inactive' } },
    });
    expect((patched.output as { status: number }).status).toBe(204);
    const read = await fx.invoke('ticketing.api_call', {
      method: 'GET',
      endpoint: `/api/v2/webhooks/${webhookId}`,
    });
    expect((read.output.body as { webhook: { status: string } }).webhook.status).toBe('inactive');
    const ticket = await fx.invoke('ticketing.create_ticket', {
      subject: 'Throwaway',
      description: 'To delete through the API Call step.',
    });
    const deleted = await fx.exchangesOf('ticketing.api_call', {
      method: 'DELETE',
      endpoint: `/api/v2/tickets/${ticket.output.ticket.id}.json`,
    });
    expect((deleted.output as { status: number }).status).toBe(204);
    await expect(
      fx.invoke('ticketing.get_ticket_info', { ticket_id: ticket.output.ticket.id }),
    ).rejects.toMatchObject({ name: 'NotFoundError' });
    expectConforming([...webhook.exchanges, ...patched.exchanges, ...deleted.exchanges]);
  });

  it('an upload (raw bytes, filename in the query) and a ticket whose comment takes its token', async () => {
    const uploaded = await fx.exchangesOf('ticketing.api_call', {
      method: 'POST',
      endpoint: '/api/v2/uploads.json?filename=note.png',
      body_base64: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]).toString('base64'),
      content_type: 'image/png',
    });
    const token = (uploaded.output as { body: { upload: { token: string } } }).body.upload.token;
    const created = await fx.exchangesOf('ticketing.create_ticket', {
      subject: 'With a file',
      description: 'See the picture.',
      upload_tokens: [token],
    });
    // The upload's body is a file, not JSON: only its path, method and query are checked.
    expectConforming([{ ...uploaded.exchanges[0]!, body: undefined }, ...created.exchanges]);
  });

  it('custom fields: set on update, read back by get_ticket_info', async () => {
    await fx.invoke('ticketing.update_ticket', {
      ticket_id: 3,
      custom_fields: [{ id: 360002, value: 'gold' }],
    });
    const { output } = await fx.invoke('ticketing.get_ticket_info', { ticket_id: 3 });
    expect(output.ticket.custom_fields).toEqual(expect.arrayContaining([{ id: 360002, value: 'gold' }]));
  });
});

describe('the contract checker finds what it is for', () => {
  it('flags a ticket field the description does not have', () => {
    const problems = zendeskSupport.requestProblems({
      method: 'PUT',
      path: '/acme/api/v2/tickets/1.json',
      query: new URLSearchParams(),
      body: { ticket: { additional_tags: ['x'] } },
    });
    expect(problems.join('\n')).toContain('body.ticket.additional_tags is not in the description');
  });

  it('flags a wrong enum value and a missing required field in an answer', () => {
    const problems = exchangeProblems({
      mount: 'ticketing',
      method: 'GET',
      path: '/acme/api/v2/tickets/1.json',
      query: new URLSearchParams(),
      body: undefined,
      status: 200,
      response: { ticket: { id: 1, status: 'reopened', subject: 'x' } },
    });
    expect(problems.join('\n')).toMatch(/status|enum/);
  });

  it('flags an undescribed query parameter and a path the provider does not have', () => {
    expect(
      zendeskSupport.requestProblems({
        method: 'GET',
        path: '/acme/api/v2/tickets/1.json',
        query: new URLSearchParams({ sideways: '1' }),
        body: undefined,
      }),
    ).toEqual(['GET /api/v2/tickets/{ticket_id}: query parameter "sideways" is not described']);
    expect(
      zendeskSupport.requestProblems({
        method: 'POST',
        path: '/acme/api/v2/tickets/1/comments.json',
        query: new URLSearchParams(),
        body: { comment: { body: 'x' } },
      }),
    ).toEqual(['POST /api/v2/tickets/1/comments is not in the description']);
  });
});
