import { provisionEventWebhook, type RuleOption, removeEventWebhook } from './event-webhook.js';
import { ticketingEventTime, ticketingSignature } from './signature.js';
import { ticketEventFacts } from './ticket-event.js';
import { ticketingWebhookAdmin } from './webhook-admin.js';

/**
 * How every ticketing trigger arrives: a signed event webhook (provider
 * facts, "Event webhooks") that the trigger provisions, checks and removes
 * the same way; only the event type (or the types the setup picks), and for
 * the rule path the watched field, differ from one trigger to the next.
 */
export function ticketEventDelivery<Setup>(
  eventType: string,
  rule?: RuleOption<Setup>,
  subscribeTo?: (setup: Setup) => readonly string[],
) {
  return {
    verify: ticketingSignature,
    eventTime: ticketingEventTime,
    parse: ticketEventFacts,
    webhook: ticketingWebhookAdmin,
    provision: provisionEventWebhook(eventType, rule, subscribeTo),
    remove: removeEventWebhook,
  };
}
