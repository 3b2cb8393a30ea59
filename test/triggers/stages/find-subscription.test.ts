import { describe, expect, it } from 'vitest';
import { MemorySubscriptionStore } from '../../../src/store/subscriptions/memory-subscription-store.js';
import { findSubscription } from '../../../src/triggers/intake/find-subscription.js';
import { subscriptionFor } from '../trigger-fixtures.js';

describe('stage 2: subscription by URL path', () => {
  it('finds /hooks/<id>, ignoring a query string', async () => {
    const store = new MemorySubscriptionStore();
    await store.put(subscriptionFor('ticketing.ticket_created', { id: 'sub_0123456789abcdef' }));
    expect((await findSubscription('/hooks/sub_0123456789abcdef', store)).id).toBe('sub_0123456789abcdef');
    expect((await findSubscription('/hooks/sub_0123456789abcdef?x=1', store)).id).toBe(
      'sub_0123456789abcdef',
    );
  });

  it('answers 404 for an unknown id, another path, or anything that is not an id', async () => {
    const store = new MemorySubscriptionStore();
    await store.put(subscriptionFor('ticketing.ticket_created', { id: 'sub_0123456789abcdef' }));
    for (const path of [
      '/hooks/sub_ffffffffffffffff',
      '/hooks/',
      '/other/sub_0123456789abcdef',
      '/hooks/sub_0123456789abcdef/extra',
      '/hooks/../connections/x',
    ]) {
      await expect(findSubscription(path, store), path).rejects.toMatchObject({
        status: 404,
        code: 'unknown_subscription',
      });
    }
  });
});
