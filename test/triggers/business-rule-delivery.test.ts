import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TicketingFixture, ticketingFixture } from '../support/ticketing-fixture.js';
import { type SandboxIntake, sandboxIntake } from './support/sandbox-intake.js';

/**
 * The business-rule path end to end over real sockets: the sandbox is the
 * provider (webhook, rule, conditions, signed delivery of the rendered
 * body), the intake receives, and a step makes the change.
 */
let fx: TicketingFixture;
let intake: SandboxIntake;

beforeEach(async () => {
  fx = await ticketingFixture();
  intake = await sandboxIntake(fx);
});

afterEach(async () => {
  await fx.close();
  await intake.close();
});

describe('a status trigger provisioned as a business rule, against the sandbox', () => {
  it('starts one event for a change into a listed status, none for other changes, and removes rule then webhook', async () => {
    const subscription = await intake.manager.create({
      trigger: 'ticketing.ticket_status_changed',
      connection: fx.connection.id,
      target: intake.target,
      setup: { to_statuses: ['solved'], delivery: 'business_rule' },
    });
    const account = fx.sandbox.ticketing.account('acme');
    expect([...account.triggers.values()]).toHaveLength(1);
    expect([...account.webhooks.values()][0]?.subscriptions).toEqual(['conditional_ticket_events']);

    await fx.invoke('ticketing.update_ticket', { ticket_id: 1, status: 'pending' });
    await fx.sandbox.webhooks.settle();
    // The rule's conditions filter at the provider: nothing was even sent.
    expect(fx.sandbox.webhooks.deliveries).toHaveLength(0);

    await fx.invoke('ticketing.update_ticket', { ticket_id: 1, status: 'solved' });
    await fx.sandbox.webhooks.settle();
    expect(intake.refused).toEqual([]);
    expect(intake.started).toHaveLength(1);
    expect(intake.started[0]).toMatchObject({
      subscription: subscription.id,
      trigger: 'ticketing.ticket_status_changed',
      variables: { ticket_id: '1', status: 'solved', previous_status: null },
    });
    expect(intake.started[0]?.event_id).toMatch(/^rule-1-/);

    await intake.manager.remove(subscription.id);
    expect(account.triggers.size).toBe(0);
    expect(account.webhooks.size).toBe(0);
  });
});
