import * as z from 'zod';
import {
  builtOnce,
  deleteIfPresent,
  type HttpClient,
  type ProvisionContext,
  type ProvisionResult,
} from '../../../../src/kit/index.js';
import { cursorPages } from './cursor-pages.js';
import {
  adoptOrCreateWebhook,
  providerPath,
  readSigningSecret,
  ticketingWebhookPaths,
} from './webhook-api.js';

/**
 * How a ticketing subscription reaches the provider. Every one of our five
 * events has its own event type (provider facts, "Event webhooks"), so an
 * event webhook is the default: the provider sends each change with its own
 * event id (the dedupe key) and the previous value. A business rule
 * (`conditional_ticket_events` webhook + `POST /api/v2/triggers` with a
 * `notification_webhook` action) is the documented older path; we offer it
 * where a setup filter is a rule condition (a status or priority changed
 * INTO one of a list), so the provider sends only the changes asked for,
 * and for accounts whose plan lacks event webhooks.
 */
export const Delivery = builtOnce(() =>
  z
    .enum(['event_webhook', 'business_rule'])
    .default('event_webhook')
    // The choices in a person's words; the description says the same for an agent reading the values.
    .meta({
      'x-toolsteps-labels': {
        event_webhook: 'Every change',
        business_rule: 'Matching changes only',
      },
    })
    .describe(
      'How changes arrive. Every change (event_webhook, the default): the provider sends every change and the filter runs here. Matching changes only (business_rule): a provider trigger with the filter as its conditions sends only those, without the previous value.',
    ),
);

export interface RuleCondition {
  field: string;
  operator: string;
  value?: string;
}

export interface RuleConditions {
  all: RuleCondition[];
  any: RuleCondition[];
}

/**
 * A `field` that changed on an update (never on creation, as the event
 * type), into one of `into` when given: the provider's `update_type is
 * Change`, `<field> changed` and `<field> value <x>` ("changed to").
 */
export function changedInto(field: string, into: readonly string[] | undefined): RuleConditions {
  return {
    all: [
      { field: 'update_type', operator: 'is', value: 'Change' },
      { field, operator: 'changed' },
    ],
    any: (into ?? []).map((value) => ({ field, operator: 'value', value })),
  };
}

/**
 * The body the rule sends: the event webhook envelope, filled from the
 * provider's placeholders, so one intake schema reads both paths. Rule
 * bodies have no event id, previous value or account id placeholder:
 * the id is the ticket and its update time (plus the new value, for two
 * changes within one second), stable across the provider's retries, which
 * resend the rendered body; `previous` is null; the account is the
 * connection's subdomain. The provider JSON-escapes placeholders in a JSON
 * webhook body.
 */
export function ruleBody(eventType: string, field: string, account: string): string {
  const current = `{{ticket.${field}}}`;
  return JSON.stringify({
    type: `zen:event-type:${eventType}`,
    account_id: account,
    id: `rule-{{ticket.id}}-{{ticket.updated_at_with_timestamp}}-${current}`,
    time: '{{ticket.updated_at_with_timestamp}}',
    zendesk_event_version: 'toolsteps-business-rule',
    subject: 'zen:ticket:{{ticket.id}}',
    detail: {
      id: '{{ticket.id}}',
      subject: '{{ticket.title}}',
      description: '{{ticket.description}}',
      status: '{{ticket.status}}',
      priority: '{{ticket.priority}}',
      type: '{{ticket.ticket_type}}',
      requester_id: '{{ticket.requester.id}}',
      assignee_id: '{{ticket.assignee.id}}',
      external_id: '{{ticket.external_id}}',
      updated_at: '{{ticket.updated_at_with_timestamp}}',
    },
    event: { previous: null, current },
  });
}

const CreatedRule = builtOnce(() =>
  z.object({ trigger: z.object({ id: z.union([z.number().int(), z.string()]) }).loose() }).loose(),
);

/**
 * Webhook (`conditional_ticket_events`), its secret, then the rule that
 * notifies it. Before the rule is asked for, the record says a rule may
 * exist (`trigger_id: pending`): if its answer is lost, `remove` finds the
 * rule by the webhook it notifies, so the webhook is never left behind a
 * rule nobody knows (the provider refuses to delete a webhook in use). A
 * retry that adopts a webhook keeps `pending` from the start, and adopts a
 * rule that already notifies it instead of asking for another.
 */
export async function provisionBusinessRule(
  context: ProvisionContext<unknown>,
  rule: { eventType: string; field: string; conditions: RuleConditions },
): Promise<ProvisionResult> {
  const retried = context.existing.length > 0 || Boolean(context.recorded.trigger_id);
  const maybeRule: Record<string, string> = retried ? { trigger_id: PENDING } : {};
  const webhookId = await adoptOrCreateWebhook(
    context,
    ['conditional_ticket_events'],
    rule.eventType,
    maybeRule,
  );
  const secret = await readSigningSecret(context, webhookId, maybeRule);
  await context.record({ webhook_id: webhookId, trigger_id: PENDING }, secret);
  const adopted = retried ? await adoptRule(context.http, webhookId) : undefined;
  const ruleId = adopted ?? (await createRule(context, webhookId, rule));
  const provider = { webhook_id: webhookId, trigger_id: ruleId };
  await context.record(provider, secret);
  return { provider, secret };
}

/** A rule an earlier attempt made for the webhook, with any further ones deleted; undefined when there is none. */
async function adoptRule(http: HttpClient, webhookId: string): Promise<string | undefined> {
  const [kept, ...others] = await rulesNotifying(http, webhookId);
  for (const other of others) await deleteIfPresent(http, providerPath('trigger', other));
  return kept;
}

/** `POST /api/v2/triggers`: the rule that notifies the webhook of the changes asked for. */
async function createRule(
  context: ProvisionContext<unknown>,
  webhookId: string,
  rule: { eventType: string; field: string; conditions: RuleConditions },
): Promise<string> {
  const account = String(context.connection.fields.subdomain ?? 'unknown');
  const answer = await context.http.request({
    method: 'POST',
    path: ticketingWebhookPaths.triggers,
    body: {
      trigger: {
        title: `toolsteps ${context.subscription.id}`,
        description: `Notifies the toolsteps subscription ${context.subscription.id} of ${rule.eventType}.`,
        active: true,
        conditions: rule.conditions,
        actions: [
          {
            field: 'notification_webhook',
            value: [webhookId, ruleBody(rule.eventType, rule.field, account)],
          },
        ],
      },
    },
  });
  return String(CreatedRule().parse(answer.body).trigger.id);
}

/** Marks a rule that was asked for but whose id we never read. */
export const PENDING = 'pending';

const RulePage = builtOnce(() =>
  z
    .object({
      triggers: z.array(
        z
          .object({
            id: z.union([z.number().int(), z.string()]),
            actions: z.array(z.object({ field: z.string(), value: z.unknown() }).loose()).nullish(),
          })
          .loose(),
      ),
      meta: z.object({ has_more: z.boolean(), after_cursor: z.string().nullish() }).loose().nullish(),
    })
    .loose(),
);

/** Rules whose `notification_webhook` action names `webhookId`: at most 50 pages of 100. */
export async function rulesNotifying(http: HttpClient, webhookId: string): Promise<string[]> {
  const found: string[] = [];
  for await (const { triggers } of cursorPages(http, ticketingWebhookPaths.triggers, (body) =>
    RulePage().parse(body),
  )) {
    for (const rule of triggers) {
      const notifies = (rule.actions ?? []).some(
        (action) =>
          action.field === 'notification_webhook' &&
          Array.isArray(action.value) &&
          String(action.value[0]) === webhookId,
      );
      if (notifies) found.push(String(rule.id));
    }
  }
  return found;
}
