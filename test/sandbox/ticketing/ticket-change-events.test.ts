import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TicketingFixture, ticketingFixture } from '../../support/ticketing-fixture.js';
import { webhookReceiver } from '../webhooks/webhook-receiver.js';

/**
 * Every change the ticketing emulator makes to a ticket is announced as its
 * provider event, so a webhook subscribed to all of them (Ticket updated)
 * hears each one; the events of one update share `meta.sequence`.
 */
let fx: TicketingFixture;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;

async function api(method: string, path: string, body: unknown) {
  const response = await fetch(`${fx.sandbox.baseUrl('ticketing', 'acme')}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${fx.connection.secrets.accessToken}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  expect(response.status, `${method} ${path}: ${await response.clone().text()}`).toBeLessThan(300);
  return response.status === 204 ? undefined : response.json();
}

beforeEach(async () => {
  fx = await ticketingFixture();
  receiver = await webhookReceiver();
});

afterEach(async () => {
  await fx.close();
  await receiver.close();
});

describe('ticket change events', () => {
  it('one update of every field the emulator changes: one event each, in one sequence', async () => {
    const types = [
      'status',
      'priority',
      'agent_assignment',
      'group_assignment',
      'subject',
      'type',
      'requester',
      'organization',
      'external_id',
      'task_due_at',
      'followers',
      'email_ccs',
      'tags',
      'custom_field',
      'comment_added',
    ].map((name) => `zen:event-type:ticket.${name}${name === 'comment_added' ? '' : '_changed'}`);
    await api('POST', '/api/v2/webhooks', {
      webhook: { name: 'all', endpoint: receiver.url, status: 'active', subscriptions: types },
    });
    // Values other than ticket 1's own, so that each is a change.
    const account = fx.sandbox.ticketing.account('acme');
    const ticket = account.tickets.get(1)!;
    const people = [...account.users.values()];
    const agent = people.find((user) => user.role === 'agent' && user.id !== ticket.assignee_id)!.id;
    const endUser = people.find((user) => user.role === 'end-user' && user.id !== ticket.requester_id)!.id;
    const organization = [...account.organizations.keys()].find((id) => id !== ticket.organization_id);
    await api('PUT', '/api/v2/tickets/1.json', {
      ticket: {
        status: 'pending',
        priority: ticket.priority === 'low' ? 'urgent' : 'low',
        assignee_id: agent,
        group_id: 360003,
        subject: 'Renamed',
        type: 'task',
        requester_id: endUser,
        organization_id: organization,
        external_id: 'ext-1',
        due_at: '2026-07-01T00:00:00Z',
        follower_ids: [agent],
        collaborator_ids: [endUser],
        additional_tags: ['vip'],
        custom_fields: [{ id: 900005, value: 'pro' }],
        comment: { body: 'Updated everything.', public: false },
      },
    });
    await fx.sandbox.webhooks.settle();
    const events = receiver.received.map((delivery) => JSON.parse(delivery.body));
    expect(events.map((event) => event.type)).toEqual(types);
    const sequences = events.map((event) => event.event.meta.sequence);
    expect(new Set(sequences.map((sequence) => sequence.id)).size).toBe(1);
    expect(sequences.map((sequence) => sequence.position)).toEqual(types.map((_, index) => index + 1));
    expect(sequences.every((sequence) => sequence.total === types.length)).toBe(true);
    expect(events[4].event).toMatchObject({ previous: 'Cannot log in', current: 'Renamed' });
    expect(events[12].event).toMatchObject({ tags_added: ['vip'], tags_removed: [] });
    expect(events[13].event).toMatchObject({
      custom_field: { id: '900005' },
      previous: null,
      current: 'pro',
    });
  });

  it('an update that changes nothing announces nothing; the tags endpoint announces its change', async () => {
    await api('POST', '/api/v2/webhooks', {
      webhook: {
        name: 'tags',
        endpoint: receiver.url,
        status: 'active',
        subscriptions: ['zen:event-type:ticket.tags_changed', 'zen:event-type:ticket.status_changed'],
      },
    });
    await api('PUT', '/api/v2/tickets/1.json', { ticket: { status: 'open' } });
    const [tag] = fx.sandbox.ticketing.account('acme').tickets.get(1)!.tags;
    await api('DELETE', '/api/v2/tickets/1/tags.json', { tags: [tag] });
    await fx.sandbox.webhooks.settle();
    expect(receiver.received.map((delivery) => JSON.parse(delivery.body).event)).toMatchObject([
      { tags_added: [], tags_removed: [tag], meta: { sequence: { position: 1, total: 1 } } },
    ]);
  });
});
