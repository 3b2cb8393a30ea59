import {
  deleteIfPresent,
  type ProvisionContext,
  type ProvisionResult,
  type RemoveContext,
  type RemovedItem,
} from '../../../../src/kit/index.js';
import { PENDING, provisionBusinessRule, type RuleConditions, rulesNotifying } from './business-rule.js';
import { adoptOrCreateWebhook, providerPath, readSigningSecret } from './webhook-api.js';

/** How a trigger that offers the business-rule path turns its setup into rule conditions. */
export interface RuleOption<Setup> {
  /** The ticket field the rule watches (`status`, `priority`), also the placeholder of the new value. */
  field: string;
  conditions(setup: Setup): RuleConditions;
}

/**
 * Provisions an event webhook: `POST /api/v2/webhooks` subscribed to one
 * `zen:event-type:*` event, or to those `subscribeTo` picks from the setup
 * (or the one an earlier attempt made, found by
 * its URL), then reads its signing secret. With a rule
 * option and `setup.delivery: business_rule`, provisions a business rule
 * instead (see business-rule.ts for when and why).
 */
export function provisionEventWebhook<Setup>(
  eventType: string,
  rule?: RuleOption<Setup>,
  subscribeTo: (setup: Setup) => readonly string[] = () => [eventType],
) {
  return async (context: ProvisionContext<Setup>): Promise<ProvisionResult> => {
    const { delivery } = context.subscription.setup as { delivery?: unknown };
    if (rule && delivery === 'business_rule') {
      return provisionBusinessRule(context, {
        eventType,
        field: rule.field,
        conditions: rule.conditions(context.subscription.setup),
      });
    }
    const subscriptions = subscribeTo(context.subscription.setup).map((type) => `zen:event-type:${type}`);
    const webhookId = await adoptOrCreateWebhook(context, subscriptions, eventType);
    const secret = await readSigningSecret(context, webhookId);
    return { provider: { webhook_id: webhookId }, secret };
  };
}

/**
 * Deletes the business rule first (the provider refuses to delete a webhook
 * a rule still notifies), then the webhook, recording after each so a
 * failure leaves exactly what is still to delete. A rule whose creation
 * answer was lost (`trigger_id: pending`) is found by the webhook it notifies.
 */
export async function removeEventWebhook(context: RemoveContext): Promise<RemovedItem[]> {
  const remaining: Record<string, string> = { ...context.provider };
  const items: RemovedItem[] = [];
  if (remaining.trigger_id) {
    const ruleIds =
      remaining.trigger_id === PENDING
        ? remaining.webhook_id
          ? await rulesNotifying(context.http, remaining.webhook_id)
          : []
        : [remaining.trigger_id];
    items.push(...(await deleteAndRecord(context, remaining, 'trigger_id', 'rule', ruleIds)));
  }
  if (remaining.webhook_id) {
    items.push(
      ...(await deleteAndRecord(context, remaining, 'webhook_id', 'webhook', [remaining.webhook_id])),
    );
  }
  return items;
}

/** Deletes each of `ids` (a rule is the provider's `trigger`), then records that `key` has nothing left to delete. */
async function deleteAndRecord(
  context: RemoveContext,
  remaining: Record<string, string>,
  key: 'trigger_id' | 'webhook_id',
  kind: 'rule' | 'webhook',
  ids: readonly string[],
): Promise<RemovedItem[]> {
  const items: RemovedItem[] = [];
  for (const id of ids) {
    const path = providerPath(kind === 'rule' ? 'trigger' : 'webhook', id);
    items.push({ kind, id, outcome: await deleteIfPresent(context.http, path) });
  }
  delete remaining[key];
  await context.record(remaining);
  return items;
}
