import { checkSubscription } from '../triggers/check-subscription.js';
import type { Subscription, SubscriptionInput } from '../triggers/subscription.js';
import type { SubscriptionStore } from '../triggers/subscription-store.js';
import { EncryptedRecords } from './encrypted-records.js';
import type { RedisCoordinator } from './redis-coordinator.js';
import type { SecretBox } from './secret-box.js';

/**
 * Subscriptions shared by every worker, in Redis, their signing secrets
 * sealed like connection secrets. Every change, the intake's delivery time
 * included, is a compare-and-set, so a delivery never overwrites a
 * command's change made in between.
 */
export class RedisSubscriptionStore implements SubscriptionStore {
  private readonly records: EncryptedRecords<Subscription>;

  constructor(coordinator: RedisCoordinator, box: SecretBox) {
    this.records = new EncryptedRecords(coordinator, box, {
      kind: 'sub',
      noun: 'subscription',
      split: ({ secret, ...publicPart }) => ({ publicPart, secrets: secret === undefined ? {} : { secret } }),
      join: (publicPart, secrets) => checkSubscription({ ...publicPart, ...secrets } as SubscriptionInput),
    });
  }

  get(id: string): Promise<Subscription | undefined> {
    return this.records.get(id);
  }

  list(): Promise<Subscription[]> {
    return this.records.list();
  }

  async put(subscription: Subscription): Promise<void> {
    const valid = checkSubscription(subscription);
    await this.records.put(valid.id, valid);
  }

  update(id: string, change: (current: Subscription) => Subscription): Promise<Subscription> {
    return this.records.update(id, (current) => checkSubscription(change(current)));
  }

  remove(id: string): Promise<boolean> {
    return this.records.remove(id);
  }

  async recordDelivery(id: string, at: number): Promise<void> {
    await this.records.update(id, (current) => ({ ...current, lastDeliveryAt: at }));
  }

  rekey(): Promise<{ rekeyed: number; total: number }> {
    return this.records.rekey();
  }
}
