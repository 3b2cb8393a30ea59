import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { MemoryDedupeStore } from '../../../src/store/dedupe/memory-dedupe-store.js';
import { handOver } from '../../../src/triggers/intake/hand-over.js';
import type { TriggerEvent } from '../../../src/triggers/trigger-event.js';

const event: TriggerEvent = {
  subscription: 'sub_0123456789abcdef',
  trigger: 'ticketing.ticket_created',
  event_id: 'e1',
  occurred_at: '2026-01-01T00:00:00.000Z',
  variables: {},
  payload: {},
};

describe('stage 9: hand over', () => {
  it('marks a handled event done before returning', async () => {
    const store = new MemoryDedupeStore(new ManualClock());
    const claim = await store.claim('k', 60_000);
    if (claim.status !== 'claimed') throw new Error('expected a claim');
    const seen: TriggerEvent[] = [];
    await handOver(
      (started) => void seen.push(started),
      event,
      store,
      { key: 'k', token: claim.token },
      60_000,
    );
    expect(seen).toEqual([event]);
    expect((await store.claim('k', 60_000)).status).toBe('done');
  });

  it('answers 500 and leaves the event undone when the handler throws', async () => {
    const store = new MemoryDedupeStore(new ManualClock());
    const claim = await store.claim('k', 60_000);
    if (claim.status !== 'claimed') throw new Error('expected a claim');
    const failing = () => {
      throw new Error('agent platform down');
    };
    await expect(
      handOver(failing, event, store, { key: 'k', token: claim.token }, 60_000),
    ).rejects.toMatchObject({
      status: 500,
      code: 'handler_failed',
    });
    expect((await store.claim('k', 60_000)).status).toBe('claimed');
  });
});
