import { checkSubscription } from '../../model/check-subscription.js';
import type { Subscription } from '../../model/subscription.js';
import { DEFAULT_TENANT, type TenantId } from '../../model/tenant-id.js';
import type { SecretBox } from '../sealed/secret-box.js';
import { SUBSCRIPTION_SHAPE } from '../subscription-shape.js';
import type { SubscriptionStore } from '../subscription-store.js';
import type { KeySource } from './encrypted-records.js';
import type { RedisHandle } from './redis-handle.js';
import { RedisRecordStore } from './redis-record-store.js';

/**
 * Subscriptions shared by every worker, in Redis, their signing secrets
 * sealed like connection secrets. Every change, the intake's delivery time
 * included, is a compare-and-set, so a delivery never overwrites a
 * command's change made in between.
 */
export class RedisSubscriptionStore extends RedisRecordStore<Subscription> implements SubscriptionStore {
  constructor(coordinator: RedisHandle, keys: SecretBox | KeySource, tenant: TenantId = DEFAULT_TENANT) {
    super(coordinator, keys, SUBSCRIPTION_SHAPE, checkSubscription, tenant);
  }

  async recordDelivery(id: string, at: number): Promise<void> {
    await this.records.update(id, (current) => ({ ...current, lastDeliveryAt: at }));
  }
}
