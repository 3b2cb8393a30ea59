import type { RedisCoordinator } from '../../coordination/redis-coordinator.js';
import { DEFAULT_TENANT, type TenantId } from '../../tenants/tenant-id.js';
import { checkSubscription } from '../../triggers/intake/check-subscription.js';
import type { Subscription } from '../../triggers/subscription.js';
import { RedisRecordStore } from '../redis-record-store.js';
import type { KeySource } from '../sealed/encrypted-records.js';
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
  constructor(coordinator: RedisCoordinator, keys: SecretBox | KeySource, tenant: TenantId = DEFAULT_TENANT) {
    super(coordinator, keys, SUBSCRIPTION_SHAPE, checkSubscription, tenant);
  }

  async recordDelivery(id: string, at: number): Promise<void> {
    await this.records.update(id, (current) => ({ ...current, lastDeliveryAt: at }));
  }
}
