import { checkSubscription } from '../triggers/check-subscription.js';
import type { Subscription, SubscriptionInput } from '../triggers/subscription.js';
import type { SubscriptionStore } from '../triggers/subscription-store.js';
import type { RedisCoordinator } from './redis-coordinator.js';
import { RedisRecordStore } from './redis-record-store.js';
import type { SecretBox } from './secret-box.js';

/**
 * Subscriptions shared by every worker, in Redis, their signing secrets
 * sealed like connection secrets. Every change, the intake's delivery time
 * included, is a compare-and-set, so a delivery never overwrites a
 * command's change made in between.
 */
export class RedisSubscriptionStore extends RedisRecordStore<Subscription> implements SubscriptionStore {
  constructor(coordinator: RedisCoordinator, box: SecretBox) {
    super(
      coordinator,
      box,
      {
        kind: 'sub',
        noun: 'subscription',
        split: ({ secret, ...publicPart }) => ({
          publicPart,
          secrets: secret === undefined ? {} : { secret },
        }),
        join: (publicPart, secrets) => checkSubscription({ ...publicPart, ...secrets } as SubscriptionInput),
      },
      checkSubscription,
    );
  }

  async recordDelivery(id: string, at: number): Promise<void> {
    await this.records.update(id, (current) => ({ ...current, lastDeliveryAt: at }));
  }
}
