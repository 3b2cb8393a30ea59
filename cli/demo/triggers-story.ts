import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TriggerEvent } from '../../src/model/trigger-event.js';
import { MemoryDedupeStore } from '../../src/store/memory/memory-dedupe-store.js';
import { MemorySubscriptionStore } from '../../src/store/memory/memory-subscription-store.js';
import { createIntake } from '../../src/triggers/intake/intake.js';
import { toNodeListener } from '../../src/triggers/intake/node-listener.js';
import { TriggerSubscriptions } from '../../src/triggers/trigger-subscriptions.js';
import type { DemoContext } from './demo-context.js';

/**
 * Subscribe to a trigger, change a ticket, see one event; replay the same
 * delivery and see it refused. The intake listens on loopback in this
 * process; the sandbox provisions the webhook and sends signed deliveries.
 */
export async function triggersStory(demo: DemoContext): Promise<void> {
  demo.heading('Triggers: a ticket status change starts one event; its replay starts nothing');
  const tokens = demo.sandbox.ticketing.issueTokens('acme');
  const now = Date.now();
  await demo.runtime.store.put({
    id: 'acme-events',
    integration: 'ticketing',
    kind: 'oauth2',
    fields: { subdomain: 'acme', baseUrl: demo.sandbox.baseUrl('ticketing', 'acme') },
    secrets: { accessToken: tokens.access_token },
    createdAt: now,
    updatedAt: now,
  });
  const started: TriggerEvent[] = [];
  const subscriptions = new MemorySubscriptionStore();
  const intake = createIntake({
    subscriptions,
    triggers: demo.registry,
    dedupe: new MemoryDedupeStore(),
    handler: (event) => void started.push(event),
    onRefused: (refusal) => demo.say(`intake refused a delivery: ${refusal.status} ${refusal.code}`),
  });
  const server = createServer(toNodeListener(intake));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const manager = new TriggerSubscriptions({
      triggers: demo.registry,
      runtime: demo.runtime,
      subscriptions,
      entitlements: { plan: 'enterprise' },
    });
    const subscription = await manager.create({
      trigger: 'ticketing.ticket_status_changed',
      connection: 'acme-events',
      target,
    });
    demo.say(
      `subscribed ${subscription.id}: webhook ${subscription.provider.webhook_id} at the provider, signing secret stored`,
    );
    const created = await demo.step<{ ticket: { id: number } }>('ticketing.create_ticket', 'acme-events', {
      subject: 'Printer on fire',
      description: 'The printer in room 3 is on fire.',
    });
    await demo.step('ticketing.update_ticket', 'acme-events', {
      ticket_id: created.output.ticket.id,
      status: 'solved',
    });
    await demo.sandbox.webhooks.settle();
    for (const event of started)
      demo.say(`event ${event.trigger} ${event.event_id}: ${JSON.stringify(event.variables)}`);
    const delivery = demo.sandbox.webhooks.deliveries.find(
      (item) => item.webhookId === subscription.provider.webhook_id,
    );
    if (delivery) {
      const replay = await fetch(`${target}/hooks/${subscription.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...delivery.sign(delivery.body, Date.now(), false) },
        body: delivery.body,
      });
      demo.say(
        `the same delivery again: ${replay.status} ${(await replay.json()).status}; events started in all: ${started.length}`,
      );
    }
    await manager.remove(subscription.id);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}
