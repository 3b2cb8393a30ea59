import type { Subscription } from './subscription.js';

/**
 * Where subscriptions live, next to connections. `update` is atomic per id
 * within a process. `recordDelivery` is kept apart from `update` so the
 * intake, which writes it on every event, never races a command that
 * activates or removes the same subscription.
 */
export interface SubscriptionStore {
  get(id: string): Promise<Subscription | undefined>;
  list(): Promise<Subscription[]>;
  put(subscription: Subscription): Promise<void>;
  update(id: string, change: (current: Subscription) => Subscription): Promise<Subscription>;
  remove(id: string): Promise<boolean>;
  recordDelivery(id: string, at: number): Promise<void>;
}
