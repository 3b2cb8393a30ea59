import { checkSubscription } from '../../model/check-subscription.js';
import type { Subscription } from '../../model/subscription.js';
import type { SubscriptionStore } from '../subscription-store.js';
import { MemoryRecordStore } from './memory-record-store.js';

/** Subscriptions in memory: for tests and embedders that persist them themselves. */
export class MemorySubscriptionStore extends MemoryRecordStore<Subscription> implements SubscriptionStore {
  constructor() {
    super({ noun: 'subscription', check: checkSubscription });
  }

  async recordDelivery(id: string, at: number): Promise<void> {
    await this.lock(id, async () => {
      const current = this.items.get(id);
      if (current) current.lastDeliveryAt = at;
    });
  }
}
