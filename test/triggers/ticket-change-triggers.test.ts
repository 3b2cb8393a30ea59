import { describe, expect, it } from 'vitest';
import { useFixture } from '../support/fixture-lifecycle.js';
import { ticketingFixture } from '../support/ticketing-fixture.js';
import { sandboxIntake } from './support/sandbox-intake.js';

/**
 * Ticket updated and ticket moved to a group, end to end over real sockets:
 * the sandbox is the provider (the webhook subscribed to the trigger's
 * event types, signed deliveries of every change a step makes), the real
 * intake receives (signature, dedupe, setup filter, variables).
 */
const fx = useFixture(() => ticketingFixture());
// Opened after the fixture it reads, before each test (hooks run in order).
const intake = useFixture(() => sandboxIntake(fx));

/** Runs a step that changes a ticket, then lets the sandbox deliver what the change announced. */
async function change(input: Record<string, unknown>): Promise<void> {
  await fx.invoke('ticketing.update_ticket', input as never);
  await fx.sandbox.webhooks.settle();
}

describe('ticketing.ticket_updated against the sandbox', () => {
  it('starts once per change, each saying what changed, one update’s events sharing update_id; a duplicate starts nothing', async () => {
    const subscription = await intake.manager.create({
      trigger: 'ticketing.ticket_updated',
      connection: fx.connection.id,
      target: intake.target,
      setup: {},
    });
    const [webhook] = fx.sandbox.ticketing.account('acme').webhooks.values();
    expect(webhook?.subscriptions).toContain('zen:event-type:ticket.tags_changed');
    expect(webhook?.subscriptions).not.toContain('zen:event-type:ticket.created');

    fx.sandbox.webhookFaults.add({ kind: 'duplicate', target: 'ticketing', count: 1 });
    await change({ ticket_id: 1, status: 'pending', priority: 'urgent', subject: 'Still cannot log in' });
    await change({ ticket_id: 1, add_tags: ['vip'], public_comment: 'Looking into it.' });
    // The duplicated first delivery went twice and intake.started once.
    expect(intake.refused.map((refusal) => refusal.code)).toEqual(['duplicate']);
    expect(fx.sandbox.webhooks.deliveries).toHaveLength(6);
    const changes = intake.started.map((event) =>
      String(event.variables.change).replace('zen:event-type:ticket.', ''),
    );
    expect(changes).toEqual([
      'status_changed',
      'priority_changed',
      'subject_changed',
      'tags_changed',
      'comment_added',
    ]);
    expect(intake.started[0]).toMatchObject({
      subscription: subscription.id,
      trigger: 'ticketing.ticket_updated',
      variables: { ticket_id: '1', previous_value: 'OPEN', current_value: 'PENDING', status: 'PENDING' },
    });
    const updates = intake.started.map((event) => event.variables.update_id);
    expect(new Set(updates.slice(0, 3)).size).toBe(1);
    expect(new Set(updates).size).toBe(3);
    expect(intake.started[3]?.payload).toMatchObject({ event: { tags_added: ['vip'], tags_removed: [] } });

    await intake.manager.remove(subscription.id);
    expect(fx.sandbox.ticketing.account('acme').webhooks.size).toBe(0);
  });

  it('with changes listed, the webhook subscribes to those alone and nothing else is even sent', async () => {
    await intake.manager.create({
      trigger: 'ticketing.ticket_updated',
      connection: fx.connection.id,
      target: intake.target,
      setup: { changes: ['tags', 'group'] },
    });
    const [webhook] = fx.sandbox.ticketing.account('acme').webhooks.values();
    expect(webhook?.subscriptions).toEqual([
      'zen:event-type:ticket.tags_changed',
      'zen:event-type:ticket.group_assignment_changed',
    ]);
    await change({ ticket_id: 2, status: 'solved' });
    expect(fx.sandbox.webhooks.deliveries).toHaveLength(0);
    await change({ ticket_id: 2, group_id: 360003, remove_tags: ['billing'] });
    // The step removes tags at the tags endpoint first, then sets the group: two updates.
    expect(intake.started.map((event) => event.variables.change)).toEqual([
      'zen:event-type:ticket.tags_changed',
      'zen:event-type:ticket.group_assignment_changed',
    ]);
  });
});

describe('ticketing.ticket_group_changed against the sandbox', () => {
  it('starts for a move into a listed group with the new and previous group, and skips other moves', async () => {
    await intake.manager.create({
      trigger: 'ticketing.ticket_group_changed',
      connection: fx.connection.id,
      target: intake.target,
      setup: { to_groups: [360003] },
    });
    await change({ ticket_id: 3, group_id: 360001 });
    expect(fx.sandbox.webhooks.deliveries).toHaveLength(1);
    expect(intake.started).toEqual([]);
    await change({ ticket_id: 3, group_id: 360003 });
    expect(intake.refused).toEqual([]);
    expect(intake.started).toHaveLength(1);
    expect(intake.started[0]).toMatchObject({
      trigger: 'ticketing.ticket_group_changed',
      variables: { ticket_id: '3', group: '360003', previous_group: '360001' },
    });
  });
});
