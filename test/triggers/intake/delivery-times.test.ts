import { describe, expect, it } from 'vitest';
import { DeliveryTimes } from '../../../src/triggers/intake/delivery-times.js';
import { countingSubscriptions } from '../support/counting-subscriptions.js';

const ID = 'sub_00000000000000d4';

/** A subscription store that counts its delivery-time writes. */
const countingStore = () => countingSubscriptions(ID);

describe('DeliveryTimes', () => {
  it('writes the first delivery at once, then the newest of a busy second once', async () => {
    const { store, writes } = await countingStore();
    const times = new DeliveryTimes(store, 60_000);
    await times.note(ID, 100);
    expect((await store.get(ID))?.lastDeliveryAt).toBe(100);
    await Promise.all(Array.from({ length: 50 }, (_, index) => times.note(ID, 200 + index)));
    expect(writes).toEqual([100]);
    await times.flush();
    expect(writes).toEqual([100, 249]);
    expect((await store.get(ID))?.lastDeliveryAt).toBe(249);
  });

  it('makes the trailing write by itself when the spell ends', async () => {
    const { store, writes } = await countingStore();
    const times = new DeliveryTimes(store, 30);
    await times.note(ID, 1);
    await times.note(ID, 2);
    await times.note(ID, 3);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(writes).toEqual([1, 3]);
  });

  it('never rejects: a failed write is dropped', async () => {
    const { store } = await countingStore();
    store.recordDelivery = async () => {
      throw new Error('disk full');
    };
    const times = new DeliveryTimes(store, 10);
    await expect(times.note(ID, 1)).resolves.toBeUndefined();
    await times.note(ID, 2);
    await expect(times.flush()).resolves.toBeUndefined();
  });
});
