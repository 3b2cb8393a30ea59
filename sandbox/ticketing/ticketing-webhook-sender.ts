import { createHmac, randomUUID } from 'node:crypto';
import type { Clock } from '../../src/model/clock.js';
import type { Delivery, WebhookDispatcher } from '../webhooks/webhook-dispatcher.js';
import { CONDITIONAL_TICKET_EVENTS, type TicketChange, ticketEvents } from './ticket-events.js';
import type { TicketingAccount } from './ticketing-account.js';
import { renderTemplate, type TicketingWebhook, triggerFires } from './ticketing-hooks.js';

/** What the provider signs test deliveries of an unsaved webhook with (its documented static test secret). */
export const TEST_SIGNING_SECRET = 'dGhpc19zZWNyZXRfaXNfZm9yX3Rlc3Rpbmdfb25seQ==';

/** The provider's timestamp header: ISO-8601 to the second, in UTC. */
export function signatureTimestamp(at: number): string {
  return new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** base64(HMAC-SHA256(secret, timestamp + body)), no separator. */
export function ticketingSignature(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret)
    .update(timestamp + body)
    .digest('base64');
}

/**
 * Turns ticket changes into signed deliveries: one per event type a
 * webhook subscribes to, and one per firing trigger whose
 * `notification_webhook` action names a webhook.
 */
export class TicketingWebhookSender {
  constructor(
    private readonly clock: Clock,
    private readonly dispatcher: WebhookDispatcher,
  ) {}

  ticketChanged(account: TicketingAccount, change: TicketChange): void {
    const time = new Date(this.clock.now()).toISOString();
    for (const event of ticketEvents(change, account.accountId, time)) {
      for (const webhook of account.webhooks.values()) {
        if (webhook.status !== 'active' || !webhook.subscriptions.includes(event.type)) continue;
        this.send(account, webhook, { id: event.id, type: event.type, body: JSON.stringify(event) });
      }
    }
    const triggers = [...account.triggers.values()].sort((a, b) => a.position - b.position);
    for (const trigger of triggers) {
      if (!triggerFires(trigger, change)) continue;
      for (const action of trigger.actions) {
        if (action.field !== 'notification_webhook' || !Array.isArray(action.value)) continue;
        const [webhookId, template] = action.value as [string, string];
        const webhook = account.webhooks.get(webhookId);
        if (webhook?.status !== 'active' || !webhook.subscriptions.includes(CONDITIONAL_TICKET_EVENTS)) {
          continue;
        }
        this.send(account, webhook, {
          id: randomUUID(),
          type: CONDITIONAL_TICKET_EVENTS,
          body: renderTemplate(typeof template === 'string' ? template : '{}', change),
        });
      }
    }
  }

  /** One signed delivery to a webhook (the test endpoint uses it with a sample body). */
  send(
    account: TicketingAccount,
    webhook: Pick<TicketingWebhook, 'id' | 'endpoint' | 'secret'>,
    event: { id: string; type: string; body: string },
  ): Delivery {
    return this.dispatcher.enqueue({
      source: 'ticketing',
      webhookId: webhook.id,
      url: webhook.endpoint,
      eventId: event.id,
      eventType: event.type,
      body: event.body,
      sign: (body, at, wrongSecret) => {
        const timestamp = signatureTimestamp(at);
        const secret = wrongSecret ? `${webhook.secret}-not-this-one` : webhook.secret;
        return {
          'x-zendesk-webhook-signature': ticketingSignature(secret, timestamp, body),
          'x-zendesk-webhook-signature-timestamp': timestamp,
          'x-zendesk-webhook-id': webhook.id,
          'x-zendesk-webhook-invocation-id': event.id,
          'x-zendesk-account-id': String(account.accountId),
        };
      },
    });
  }

  /** Sends what is due now and waits for it (the test endpoint answers with the receiver's status). */
  settle(): Promise<void> {
    return this.dispatcher.settle();
  }
}
