import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/model/clock.js';
import { MemoryDedupeStore } from '../../../src/store/memory/memory-dedupe-store.js';
import { claimEvent, dedupeKey } from '../../../src/triggers/intake/claim-event.js';
import { subscriptionFor } from '../trigger-fixtures.js';

describe('stage 6: dedupe on the provider event id', () => {
  it('keys by subscription and event, so two subscriptions each start their own', () => {
    const one = subscriptionFor('ticketing.ticket_created', { id: 'sub_0000000000000001' });
    const two = subscriptionFor('ticketing.ticket_created', { id: 'sub_0000000000000002' });
    expect(dedupeKey(one, 'e1')).not.toBe(dedupeKey(two, 'e1'));
  });

  it('claims a new event, answers 200 duplicate once it is done, 409 while it is in flight', async () => {
    const store = new MemoryDedupeStore(new ManualClock());
    const token = await claimEvent(store, 'k', 60_000);
    await expect(claimEvent(store, 'k', 60_000)).rejects.toMatchObject({ status: 409, code: 'in_flight' });
    await store.complete('k', token, 60_000);
    await expect(claimEvent(store, 'k', 60_000)).rejects.toMatchObject({ status: 200, code: 'duplicate' });
  });

  it('frees a released event for the provider’s retry', async () => {
    const store = new MemoryDedupeStore(new ManualClock());
    const token = await claimEvent(store, 'k', 60_000);
    await store.release('k', token);
    expect(await claimEvent(store, 'k', 60_000)).toMatch(/^[0-9a-f]+$/);
  });
});
