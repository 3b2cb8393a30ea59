import { KeyedMutex } from '../connection/keyed-mutex.js';
import { NotFoundError } from '../errors.js';
import { checkSubscription } from './check-subscription.js';
import type { Subscription } from './subscription.js';
import type { SubscriptionStore } from './subscription-store.js';

/** Subscriptions in memory: for tests and embedders that persist them themselves. */
export class MemorySubscriptionStore implements SubscriptionStore {
  private readonly items = new Map<string, Subscription>();
  private readonly mutex = new KeyedMutex();

  async get(id: string): Promise<Subscription | undefined> {
    const found = this.items.get(id);
    return found ? structuredClone(found) : undefined;
  }

  async list(): Promise<Subscription[]> {
    return [...this.items.values()].map((item) => structuredClone(item));
  }

  async put(subscription: Subscription): Promise<void> {
    const valid = checkSubscription(subscription);
    await this.mutex.run(valid.id, async () => {
      this.items.set(valid.id, structuredClone(valid));
    });
  }

  async update(id: string, change: (current: Subscription) => Subscription): Promise<Subscription> {
    return this.mutex.run(id, async () => {
      const current = this.items.get(id);
      if (!current) throw new NotFoundError(`No subscription with id "${id}".`);
      const next = checkSubscription(change(structuredClone(current)));
      this.items.set(id, next);
      return structuredClone(next);
    });
  }

  async remove(id: string): Promise<boolean> {
    return this.mutex.run(id, async () => this.items.delete(id));
  }

  async recordDelivery(id: string, at: number): Promise<void> {
    await this.mutex.run(id, async () => {
      const current = this.items.get(id);
      if (current) current.lastDeliveryAt = at;
    });
  }
}
