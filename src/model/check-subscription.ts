import { checkRecord } from './check-record.js';
import { Subscription, type SubscriptionInput } from './subscription.js';

/** A subscription about to be stored: bad values are an InputError naming the fields, never the secret. */
export function checkSubscription(value: SubscriptionInput): Subscription {
  return checkRecord(Subscription, 'subscription', value);
}
