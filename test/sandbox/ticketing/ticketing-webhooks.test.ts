import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEST_SIGNING_SECRET, ticketingSignature } from '../../../sandbox/index.js';
import type { StepInput } from '../../../src/step/step-lookups.js';
import type updateTicket from '../../../steps/ticketing/update-ticket.js';
import { type TicketingFixture, ticketingFixture } from '../../support/ticketing-fixture.js';
import { type Received, webhookReceiver } from '../webhooks/webhook-receiver.js';

/** The receiver's own check, written from the provider's rule, not from the sandbox's code. */
function verifies(secret: string, delivery: Received): boolean {
  const timestamp = String(delivery.headers['x-zendesk-webhook-signature-timestamp']);
  const expected = createHmac('sha256', secret)
    .update(timestamp + delivery.body)
    .digest('base64');
  return delivery.headers['x-zendesk-webhook-signature'] === expected;
}

let fx: TicketingFixture;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
let token: string;

async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${fx.sandbox.baseUrl('ticketing', 'acme')}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** An event webhook to the receiver, and its signing secret. */
async function eventWebhook(subscriptions: string[]): Promise<{ id: string; secret: string }> {
  const created = await api('POST', '/api/v2/webhooks', {
    webhook: {
      name: 'agents',
      endpoint: receiver.url,
      http_method: 'POST',
      request_format: 'json',
      status: 'active',
      subscriptions,
    },
  });
  expect(created.status).toBe(201);
  expect(created.body.webhook.secret).toBeUndefined();
  const secret = await api('GET', `/api/v2/webhooks/${created.body.webhook.id}/signing_secret`);
  return { id: created.body.webhook.id, secret: secret.body.signing_secret.secret };
}

/** Updates a ticket as a step would, then lets the sandbox deliver what the change announced. */
async function updateAndDeliver(input: StepInput<typeof updateTicket>): Promise<void> {
  await fx.invoke('ticketing.update_ticket', input);
  await fx.sandbox.webhooks.settle();
}

/** Moves the sandbox clock on by `ms`, then lets every delivery due by then go. */
async function deliverAfter(ms: number): Promise<void> {
  fx.clock.advance(ms);
  await fx.sandbox.webhooks.settle();
}

beforeEach(async () => {
  fx = await ticketingFixture({ sandbox: { webhooks: { firstRetryMs: 1_000, maxAttempts: 3 } } });
  receiver = await webhookReceiver();
  token = fx.connection.secrets.accessToken!;
});

afterEach(async () => {
  await fx.close();
  await receiver.close();
});

describe('ticketing emulator webhooks', () => {
  it('signs with base64 HMAC-SHA256 of timestamp + body (known vector)', () => {
    expect(ticketingSignature(TEST_SIGNING_SECRET, '2026-06-01T12:00:05Z', '{"type":"test"}')).toBe(
      'J76LtjD8rKI6UCyHGr3PoSM6yynlCBL7kedhMlqWYok=',
    );
  });

  it('a status change made by a step is delivered once, signed, in the event shape', async () => {
    const hook = await eventWebhook(['zen:event-type:ticket.status_changed']);
    await updateAndDeliver({ ticket_id: 1, status: 'solved' });
    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received;
    expect(verifies(hook.secret, delivery!)).toBe(true);
    expect(delivery!.headers['x-zendesk-webhook-signature-timestamp']).toBe('2026-06-01T12:00:05Z');
    const event = JSON.parse(delivery!.body);
    expect(Object.keys(event).sort()).toEqual(
      ['account_id', 'detail', 'event', 'id', 'subject', 'time', 'type', 'zendesk_event_version'].sort(),
    );
    expect(event).toMatchObject({
      type: 'zen:event-type:ticket.status_changed',
      subject: 'zen:ticket:1',
      detail: { id: '1', status: 'SOLVED', subject: 'Cannot log in' },
      event: { previous: 'OPEN', current: 'SOLVED' },
    });
    expect(delivery!.headers['x-zendesk-webhook-invocation-id']).toBe(event.id);
  });

  it('each event type goes only to webhooks subscribed to it; the API Call step counts as a change (assumption: POST comments.json is served)', async () => {
    await eventWebhook(['zen:event-type:ticket.created', 'zen:event-type:ticket.comment_added']);
    await fx.invoke('ticketing.create_ticket', {
      subject: 'Printer on fire',
      description: 'Smoke on level 3.',
    });
    await fx.invoke('ticketing.api_call', {
      method: 'POST',
      endpoint: '/api/v2/tickets/2/comments.json',
      body: { comment: { body: 'Any news?', public: true } },
    });
    await updateAndDeliver({ ticket_id: 2, priority: 'urgent' });
    const types = receiver.received.map((delivery) => JSON.parse(delivery.body).type);
    expect(types).toEqual(['zen:event-type:ticket.created', 'zen:event-type:ticket.comment_added']);
    expect(JSON.parse(receiver.received[1]!.body).event.comment).toMatchObject({
      body: 'Any news?',
      is_public: true,
    });
  });

  it('retries a 500 after the backoff on the sandbox clock, with the same event, and gives up after maxAttempts', async () => {
    await eventWebhook(['zen:event-type:ticket.priority_changed']);
    receiver.answer(500);
    await updateAndDeliver({ ticket_id: 3, priority: 'high' });
    expect(receiver.received).toHaveLength(1);
    await deliverAfter(999);
    expect(receiver.received).toHaveLength(1);
    await deliverAfter(1);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
    expect(fx.sandbox.webhooks.deliveries[0]).toMatchObject({ state: 'delivered' });

    receiver.answer(500, 503, 502, 500);
    await fx.invoke('ticketing.update_ticket', { ticket_id: 3, priority: 'low' });
    for (let round = 0; round < 5; round += 1) {
      await fx.sandbox.webhooks.settle();
      fx.clock.advance(10_000);
    }
    expect(receiver.received).toHaveLength(5);
    expect(fx.sandbox.webhooks.deliveries[1]).toMatchObject({ state: 'failed' });
    expect(fx.sandbox.webhooks.deliveries[1]!.attempts.map((attempt) => attempt.status)).toEqual([
      500, 503, 502,
    ]);
  });

  it('fault switches: a duplicate, a delay on the sandbox clock, a wrong signature', async () => {
    const hook = await eventWebhook(['zen:event-type:ticket.agent_assignment_changed']);
    fx.sandbox.webhookFaults.add({ kind: 'duplicate', count: 1 });
    await updateAndDeliver({ ticket_id: 3, assignee: 'sam@acme.example' });
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[0]!.body).toBe(receiver.received[1]!.body);

    fx.sandbox.webhookFaults.add({ kind: 'delay', count: 1, ms: 30_000 });
    await updateAndDeliver({ ticket_id: 3, assignee: 'ada@acme.example' });
    expect(receiver.received).toHaveLength(2);
    await deliverAfter(30_000);
    expect(receiver.received).toHaveLength(3);
    expect(verifies(hook.secret, receiver.received[2]!)).toBe(true);

    fx.sandbox.webhookFaults.add({ kind: 'bad_signature', count: 1 });
    await updateAndDeliver({ ticket_id: 3, assignee: 'sam@acme.example' });
    expect(receiver.received).toHaveLength(4);
    expect(verifies(hook.secret, receiver.received[3]!)).toBe(false);
    expect(JSON.parse(receiver.received[3]!.body).event).toMatchObject({ previous: '1', current: '2' });
  });

  it('a trigger with action notification_webhook sends its rendered body when its conditions hold', async () => {
    const hook = await eventWebhook(['conditional_ticket_events']);
    const trigger = await api('POST', '/api/v2/triggers.json', {
      trigger: {
        title: 'Solved tickets to agents',
        conditions: { all: [{ field: 'status', operator: 'value', value: 'solved' }] },
        actions: [
          {
            field: 'notification_webhook',
            value: [hook.id, '{"ticket":"{{ticket.id}}","status":"{{ticket.status}}"}'],
          },
        ],
      },
    });
    expect(trigger.status).toBe(201);
    await fx.invoke('ticketing.update_ticket', { ticket_id: 2, priority: 'urgent' });
    await updateAndDeliver({ ticket_id: 2, status: 'solved' });
    expect(receiver.received.map((delivery) => delivery.body)).toEqual(['{"ticket":"2","status":"solved"}']);
    expect(verifies(hook.secret, receiver.received[0]!)).toBe(true);
    // The webhook cannot go while the trigger uses it; the trigger first, then the webhook.
    expect((await api('DELETE', `/api/v2/webhooks/${hook.id}`)).status).toBe(400);
    expect((await api('DELETE', `/api/v2/triggers/${trigger.body.trigger.id}.json`)).status).toBe(204);
    expect((await api('DELETE', `/api/v2/webhooks/${hook.id}`)).status).toBe(204);
  });

  it('the test endpoint delivers at once, signed with the static test secret for an unsaved webhook', async () => {
    const answer = await api('POST', '/api/v2/webhooks/test', {
      webhook: { endpoint: receiver.url },
      request_body: '{"type":"test"}',
    });
    expect(answer.body.test).toMatchObject({ status: 'success', response_code: 200 });
    expect(receiver.received).toHaveLength(1);
    expect(verifies(TEST_SIGNING_SECRET, receiver.received[0]!)).toBe(true);
  });

  it('refuses to register a webhook anywhere but this machine', async () => {
    for (const endpoint of [
      'https://hooks.example.com/x',
      'http://10.0.0.8/x',
      'http://user:pw@127.0.0.1/x',
      'file:///etc/passwd',
    ]) {
      const created = await api('POST', '/api/v2/webhooks', {
        webhook: { name: 'x', endpoint, subscriptions: ['zen:event-type:ticket.created'] },
      });
      expect(created.status, endpoint).toBe(400);
    }
    expect(fx.sandbox.ticketing.account('acme').webhooks.size).toBe(0);
  });
});
