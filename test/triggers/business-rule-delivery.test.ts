import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TriggerEvent } from '../../src/model/trigger-event.js';
import { MemoryDedupeStore } from '../../src/store/memory/memory-dedupe-store.js';
import { MemorySubscriptionStore } from '../../src/store/memory/memory-subscription-store.js';
import { createIntake } from '../../src/triggers/intake/intake.js';
import type { IntakeRefusal } from '../../src/triggers/intake/intake-refusal.js';
import { toNodeListener } from '../../src/triggers/intake/node-listener.js';
import { TriggerSubscriptions } from '../../src/triggers/trigger-subscriptions.js';
import { type TicketingFixture, ticketingFixture } from '../support/ticketing-fixture.js';

/**
 * The business-rule path end to end over real sockets: the sandbox is the
 * provider (webhook, rule, conditions, signed delivery of the rendered
 * body), the intake receives, and a step makes the change.
 */
let fx: TicketingFixture;
let server: Server;
let manager: TriggerSubscriptions;
const started: TriggerEvent[] = [];
const refused: IntakeRefusal[] = [];
let target: string;

beforeEach(async () => {
  started.length = 0;
  refused.length = 0;
  fx = await ticketingFixture();
  const subscriptions = new MemorySubscriptionStore();
  manager = new TriggerSubscriptions({
    triggers: fx.registry,
    runtime: fx.runtime,
    subscriptions,
    entitlements: { plan: 'enterprise' },
    clock: fx.clock,
  });
  const intake = createIntake({
    subscriptions,
    triggers: fx.registry,
    dedupe: new MemoryDedupeStore(fx.clock),
    clock: fx.clock,
    handler: (event) => {
      started.push(event);
    },
    onRefused: (refusal) => refused.push(refusal),
  });
  server = createServer(toNodeListener(intake));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await fx.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('a status trigger provisioned as a business rule, against the sandbox', () => {
  it('starts one event for a change into a listed status, none for other changes, and removes rule then webhook', async () => {
    const subscription = await manager.create({
      trigger: 'ticketing.ticket_status_changed',
      connection: fx.connection.id,
      target,
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
    expect(refused).toEqual([]);
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({
      subscription: subscription.id,
      trigger: 'ticketing.ticket_status_changed',
      variables: { ticket_id: '1', status: 'solved', previous_status: null },
    });
    expect(started[0]?.event_id).toMatch(/^rule-1-/);

    await manager.remove(subscription.id);
    expect(account.triggers.size).toBe(0);
    expect(account.webhooks.size).toBe(0);
  });
});
