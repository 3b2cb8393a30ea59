import type { RedisCoordinator } from '../../coordination/redis-coordinator.js';
import { checkSubscription } from '../../triggers/intake/check-subscription.js';
import type { Subscription } from '../../triggers/subscription.js';
import { RedisRecordStore } from '../redis-record-store.js';
import type { SecretBox } from '../sealed/secret-box.js';
import { SUBSCRIPTION_SHAPE } from './subscription-shape.js';
import type { SubscriptionStore } from './subscription-store.js';

/**
 * Subscriptions shared by every worker, in Redis, their signing secrets
 * sealed like connection secrets. Every change, the intake's delivery time
 * included, is a compare-and-set, so a delivery never overwrites a
 * command's change made in between.
 */
export class RedisSubscriptionStore extends RedisRecordStore<Subscription> implements SubscriptionStore {
  constructor(coordinator: RedisCoordinator, box: SecretBox) {
    super(coordinator, box, SUBSCRIPTION_SHAPE, checkSubscription);
  }

  async recordDelivery(id: string, at: number): Promise<void> {
    await this.records.update(id, (current) => ({ ...current, lastDeliveryAt: at }));
  }
}
