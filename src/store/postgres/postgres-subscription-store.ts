import { checkSubscription } from '../../model/check-subscription.js';
import type { Subscription } from '../../model/subscription.js';
import { SUBSCRIPTION_SHAPE } from '../subscription-shape.js';
import type { SubscriptionStore } from '../subscription-store.js';
import { type PostgresRecordScope, PostgresRecordStore } from './postgres-record-store.js';

/**
 * One tenant's trigger subscriptions in Postgres, signing secrets sealed.
 * A delivery's time is written as every change is, holding the row, so it
 * never overwrites a command's change made in between, nor loses to one.
 */
export class PostgresSubscriptionStore
  extends PostgresRecordStore<Subscription>
  implements SubscriptionStore
{
  constructor(scope: Omit<PostgresRecordScope<Subscription>, 'table' | 'shape' | 'check'>) {
    super({ ...scope, table: 'subscriptions', shape: SUBSCRIPTION_SHAPE, check: checkSubscription });
  }

  async recordDelivery(id: string, at: number): Promise<void> {
    await this.update(id, (current) => ({ ...current, lastDeliveryAt: at }));
  }
}
