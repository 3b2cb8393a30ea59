import { describe, expect, it } from 'vitest';
import { MemoryDedupeStore } from '../../../src/store/memory/memory-dedupe-store.js';
import { MemorySubscriptionStore } from '../../../src/store/memory/memory-subscription-store.js';
import { findSubscription } from '../../../src/triggers/intake/find-subscription.js';
import { servedTenants } from '../../../src/triggers/intake/intake-tenants.js';
import { UNVERIFIED_ANSWER } from '../../../src/triggers/intake/refuse-unverified.js';
import { createRegistry } from '../../../steps/index.js';
import { subscriptionFor } from '../trigger-fixtures.js';

const registry = createRegistry();

async function storeWith(...overrides: Parameters<typeof subscriptionFor>[1][]) {
  const store = new MemorySubscriptionStore();
  for (const override of overrides) await store.put(subscriptionFor('ticketing.ticket_created', override));
  return servedTenants({ subscriptions: store, dedupe: new MemoryDedupeStore() });
}

describe('stage 2: subscription by URL path', () => {
  it('finds /hooks/<id> with its trigger, ignoring a query string', async () => {
    const store = await storeWith({ id: 'sub_0123456789abcdef' });
    for (const path of ['/hooks/sub_0123456789abcdef', '/hooks/sub_0123456789abcdef?x=1']) {
      const found = await findSubscription(path, store, registry);
      expect(found).toMatchObject({
        subscription: { id: 'sub_0123456789abcdef' },
        trigger: { id: 'ticketing.ticket_created' },
      });
    }
  });

  it('finds nothing verifiable for an unknown id, another path, or anything that is not an id', async () => {
    const store = await storeWith({ id: 'sub_0123456789abcdef' });
    for (const path of [
      '/hooks/sub_ffffffffffffffff',
      '/hooks/',
      '/other/sub_0123456789abcdef',
      '/hooks/sub_0123456789abcdef/extra',
      '/hooks/../connections/x',
    ]) {
      const found = await findSubscription(path, store, registry);
      expect(found, path).toMatchObject({ refusal: { status: 401, code: 'unknown_subscription' } });
      expect(found).not.toHaveProperty('subscription');
    }
  });

  it('refuses a stored subscription that cannot verify (no secret, trigger not here) as it refuses an unknown id', async () => {
    const store = await storeWith(
      { id: 'sub_00000000000000aa', secret: undefined },
      { id: 'sub_00000000000000bb', trigger: 'ticketing.gone' },
    );
    const noSecret = await findSubscription('/hooks/sub_00000000000000aa', store, registry);
    expect(noSecret).toMatchObject({
      subscription: 'sub_00000000000000aa',
      refusal: { status: 401, code: 'no_signing_secret', answer: UNVERIFIED_ANSWER },
    });
    const noTrigger = await findSubscription('/hooks/sub_00000000000000bb', store, registry);
    expect(noTrigger).toMatchObject({
      refusal: { status: 401, code: 'trigger_unavailable', answer: UNVERIFIED_ANSWER },
    });
  });
});
