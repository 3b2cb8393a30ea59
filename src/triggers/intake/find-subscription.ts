import type { SubscriptionStore } from '../../store/subscriptions/subscription-store.js';
import type { AnyTrigger } from '../define-trigger.js';
import { HOOKS_PATH_PREFIX, type Subscription, subscriptionIdPattern } from '../subscription.js';
import type { IntakeRefusal } from './intake-refusal.js';
import { unverified } from './refuse-unverified.js';

/** A subscription a delivery can be verified against: its trigger is served here and it holds a secret. */
export interface VerifiableSubscription {
  subscription: Subscription;
  trigger: AnyTrigger;
}

/** Why nothing at the path can verify a delivery; `subscription` is the id when one is stored there. */
export interface Unverifiable {
  refusal: IntakeRefusal;
  subscription?: string;
}

/**
 * Stage 1, subscription by URL path: `/hooks/<subscription-id>` (a query
 * string is ignored), looked up before a byte of the body is read. A path
 * that is no id, an id nobody stored, a trigger not served here and a
 * subscription without a secret all come back Unverifiable, with a refusal
 * that tells the sender no more than a bad signature does.
 */
export async function findSubscription(
  path: string,
  store: SubscriptionStore,
  triggers: { trigger(id: string): AnyTrigger | undefined },
): Promise<VerifiableSubscription | Unverifiable> {
  const pathname = path.split('?')[0] ?? '';
  const id = pathname.startsWith(HOOKS_PATH_PREFIX) ? pathname.slice(HOOKS_PATH_PREFIX.length) : '';
  const subscription = subscriptionIdPattern.test(id) ? await store.get(id) : undefined;
  if (!subscription) {
    return { refusal: unverified('unknown_subscription', 'No subscription at this path.') };
  }
  const trigger = triggers.trigger(subscription.trigger);
  if (!trigger) {
    const message = `Trigger ${subscription.trigger} is not available here.`;
    return { refusal: unverified('trigger_unavailable', message), subscription: subscription.id };
  }
  if (!subscription.secret) {
    const message = 'This subscription has no signing secret, so every delivery is refused.';
    return { refusal: unverified('no_signing_secret', message), subscription: subscription.id };
  }
  return { subscription, trigger };
}
