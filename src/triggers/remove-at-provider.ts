import { type Subscription, subscriptionUrl } from '../model/subscription.js';
import { withProviderSession } from '../runtime/provider-session.js';
import type { Runtime } from '../runtime/runtime.js';
import type { AnyTrigger, ProviderContext } from './define-trigger.js';
import type { RemovedItem } from './provider-webhook.js';
import { webhooksDeliveringTo } from './provision-subscription.js';

/**
 * What removing a subscription did at the provider, in one word:
 * - `removed`: something was deleted there now;
 * - `already_gone`: what it had made there was deleted already (in the
 *   provider's settings, or by an earlier `remove` cut short);
 * - `never_provisioned`: nothing was ever made there (a manual
 *   subscription, or a create that never took effect: looked for by URL);
 * - `unknown`: a create may have taken effect and the trigger has no way to
 *   look for it: check the provider's settings for a webhook to the URL.
 */
export type ProviderRemoval = 'removed' | 'already_gone' | 'never_provisioned' | 'unknown';

/** What removing one subscription did at its provider, so a person knows whether anything is left to delete by hand. */
export interface SubscriptionRemoval {
  id: string;
  provider: ProviderRemoval;
  /** Made by hand in the provider's settings: delete it there. */
  manual: boolean;
  /** Each thing deleted, or found already deleted, at the provider. */
  items: RemovedItem[];
}

/** The one word for what `items` say, given what the subscription's record knew. */
export function summarizeRemoval(
  subscription: Subscription,
  items: readonly RemovedItem[],
  looked: boolean,
): ProviderRemoval {
  if (items.some((item) => item.outcome === 'removed')) return 'removed';
  if (items.length || subscription.state === 'removing') return 'already_gone';
  if (subscription.manual || subscription.state === 'ready' || looked) return 'never_provisioned';
  return 'unknown';
}

/** Whether the trigger can find its webhooks by URL and delete one by id. */
export function canLook(trigger: AnyTrigger): boolean {
  return Boolean(trigger.webhook?.list && trigger.webhook.delete);
}

/**
 * Deletes at the provider what the subscription recorded (through the
 * trigger's `remove`, in the order the provider needs) and, while the record
 * may be incomplete (`provisioning`, `removing`), every webhook found by the
 * subscription's URL that it does not record: the one a lost create answer
 * left. Returns what each deletion did.
 */
export async function removeAtProvider(
  runtime: Runtime,
  trigger: AnyTrigger,
  subscription: Subscription,
  record: (provider: Record<string, string>) => Promise<void>,
  caller?: string,
): Promise<{ items: RemovedItem[]; looked: boolean }> {
  const look = subscription.state !== 'ready' && canLook(trigger);
  const recorded = Object.keys(subscription.provider).length > 0;
  if (!look && !recorded) return { items: [], looked: false };
  const on = { connection: subscription.connection, caller };
  return withProviderSession(runtime, trigger, on, async (session) => {
    const base: ProviderContext = { http: session.http, connection: session.connection, log: session.log };
    const found = look ? await webhooksDeliveringTo(trigger, base, subscriptionUrl(subscription)) : [];
    const items = recorded ? await trigger.remove({ ...base, provider: subscription.provider, record }) : [];
    const known = new Set(Object.values(subscription.provider));
    const remove = trigger.webhook?.delete;
    for (const webhook of found) {
      if (known.has(webhook.id) || !remove) continue;
      items.push({ kind: 'webhook', id: webhook.id, outcome: await remove(base, webhook.id) });
    }
    return { items, looked: look };
  });
}
