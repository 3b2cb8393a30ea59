import type { Subscription } from '../model/subscription.js';
import type { RecordStore } from './record-store.js';

/**
 * Where subscriptions live, next to connections. `update` is atomic per id
 * within a process. `recordDelivery` is kept apart from `update` so the
 * intake, which writes it on every event, never races a command that
 * activates or removes the same subscription.
 */
export interface SubscriptionStore extends RecordStore<Subscription> {
  /** Notes when the subscription last received an event (epoch ms), which orphan scans and `listen` show. */
  recordDelivery(id: string, at: number): Promise<void>;
  /**
   * The subscription without `lastDeliveryAt`, for the intake, which reads
   * one per delivery and never needs it: a store that keeps that time apart
   * (the file store) skips reading it. Stores without it are read with `get`.
   */
  getWithoutDeliveryTime?(id: string): Promise<Subscription | undefined>;
}
