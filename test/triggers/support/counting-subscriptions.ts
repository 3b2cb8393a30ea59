import { MemorySubscriptionStore } from '../../../src/store/memory/memory-subscription-store.js';
import { subscriptionFor } from '../trigger-fixtures.js';

/** A memory subscription store holding one deployments subscription `id`, that keeps the time of each delivery-time write. */
export async function countingSubscriptions(id: string) {
  const store = new MemorySubscriptionStore();
  await store.put(subscriptionFor('deployments.deployment_started', { id }));
  const writes: number[] = [];
  const recordDelivery = store.recordDelivery.bind(store);
  store.recordDelivery = async (written, at) => {
    writes.push(at);
    await recordDelivery(written, at);
  };
  return { store, writes };
}
