import type { SubscriptionStore } from '../../store/subscriptions/subscription-store.js';
import { HOOKS_PATH_PREFIX, type Subscription, subscriptionIdPattern } from '../subscription.js';
import { IntakeRefusal } from './intake-refusal.js';

/**
 * Stage 2, subscription by URL path: `/hooks/<subscription-id>` (a query
 * string is ignored). Anything else, or an id nobody stored, is a 404 that
 * says no more than that.
 */
export async function findSubscription(path: string, store: SubscriptionStore): Promise<Subscription> {
  const pathname = path.split('?')[0] ?? '';
  const id = pathname.startsWith(HOOKS_PATH_PREFIX) ? pathname.slice(HOOKS_PATH_PREFIX.length) : '';
  const subscription = subscriptionIdPattern.test(id) ? await store.get(id) : undefined;
  if (!subscription) throw new IntakeRefusal(404, 'unknown_subscription', 'No subscription at this path.');
  return subscription;
}
