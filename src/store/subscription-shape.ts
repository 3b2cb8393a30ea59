import { checkSubscription } from '../model/check-subscription.js';
import { type Subscription, type SubscriptionInput, subscriptionIdPattern } from '../model/subscription.js';
import type { RecordShape } from './redis/encrypted-records.js';

/** How a subscription is sealed in a shared store (Redis, Postgres): its signing secret sealed, the rest in clear. */
export const SUBSCRIPTION_SHAPE: RecordShape<Subscription> = {
  kind: 'sub',
  noun: 'subscription',
  idPattern: subscriptionIdPattern,
  split: ({ secret, ...publicPart }) => ({
    publicPart,
    secrets: secret === undefined ? {} : { secret },
  }),
  join: (publicPart, secrets) => checkSubscription({ ...publicPart, ...secrets } as SubscriptionInput),
};
