import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/model/clock.js';
import type { HandOff, TriggerEvent } from '../../../src/model/trigger-event.js';
import type { DedupeStore } from '../../../src/store/dedupe-store.js';
import { DonePendingDedupeStore } from '../../../src/store/done-pending-dedupe-store.js';
import { MemoryDedupeStore } from '../../../src/store/memory/memory-dedupe-store.js';
import { type HandOffTiming, handOver } from '../../../src/triggers/intake/hand-over.js';
import { startedEvent } from '../trigger-fixtures.js';

const event = startedEvent;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const TIMING: HandOffTiming = {
  deadlineMs: 60_000,
  leaseMs: 60_000,
  renewEveryMs: 10_000,
  doneTtlMs: 60_000,
};

async function claimed(store: DedupeStore, leaseMs = 60_000) {
  const claim = await store.claim('k', leaseMs);
  if (claim.status !== 'claimed') throw new Error('expected a claim');
  return { key: 'k', token: claim.token };
}

/** A store whose writes fail while `down` is set, as Redis's do while it restarts. */
class FlakyStore extends MemoryDedupeStore {
  down = false;
  completes = 0;
  releases = 0;
  override async complete(key: string, token: string, ttlMs: number): Promise<void> {
    this.completes += 1;
    if (this.down) throw new Error('Reached the max retries per request limit');
    return super.complete(key, token, ttlMs);
  }
  override async release(key: string, token: string): Promise<void> {
    this.releases += 1;
    if (this.down) throw new Error('Reached the max retries per request limit');
    return super.release(key, token);
  }
}

describe('stage 9: hand over', () => {
  it('marks a handled event done before returning', async () => {
    const store = new MemoryDedupeStore(new ManualClock());
    const seen: TriggerEvent[] = [];
    await handOver((started) => void seen.push(started), event, store, await claimed(store), TIMING);
    expect(seen).toEqual([event]);
    expect((await store.claim('k', 60_000)).status).toBe('done');
  });

  it('answers 500 and leaves the event undone when the handler throws', async () => {
    const store = new MemoryDedupeStore(new ManualClock());
    const failing = () => {
      throw new Error('agent platform down');
    };
    await expect(handOver(failing, event, store, await claimed(store), TIMING)).rejects.toMatchObject({
      status: 500,
      code: 'handler_failed',
    });
    expect((await store.claim('k', 60_000)).status).toBe('claimed');
  });

  it('keeps renewing a short lease while the handler runs, so the claim outlives it', async () => {
    const store = new MemoryDedupeStore();
    // Generous against a loaded machine: a renewal late by most of a lease still keeps the claim.
    const timing = { ...TIMING, leaseMs: 1_000, renewEveryMs: 100 };
    const claim = await claimed(store, timing.leaseMs);
    const outcome = handOver(() => sleep(2_500), event, store, claim, timing).then(
      () => 'done',
      (error: unknown) => error,
    );
    await sleep(1_800); // well past the first lease
    expect((await store.claim('k', 1_000)).status).toBe('in_flight');
    expect(await outcome).toBe('done');
    expect((await store.claim('k', 1_000)).status).toBe('done');
  });

  it('stops a handler at its deadline: it is told to stop, the delivery answers 500, and the claim lapses one lease later', async () => {
    const store = new MemoryDedupeStore();
    const timing = { ...TIMING, deadlineMs: 300, leaseMs: 600, renewEveryMs: 50 };
    let signal: AbortSignal | undefined;
    // A handler that ignores its signal: the intake stops waiting for it all the same.
    const stubborn = (_event: TriggerEvent, handOff: HandOff) => {
      signal = handOff.signal;
      return sleep(5_000);
    };
    const started = Date.now();
    await expect(handOver(stubborn, event, store, await claimed(store, 600), timing)).rejects.toMatchObject({
      status: 500,
      code: 'handler_timeout',
    });
    const answeredAfter = Date.now() - started;
    expect(answeredAfter).toBeGreaterThanOrEqual(300);
    expect(answeredAfter).toBeLessThan(2_000);
    expect(signal?.aborted).toBe(true);
    await sleep(700); // one lease after the last renewal, which came no later than the deadline
    expect((await store.claim('k', 600)).status).toBe('claimed');
  });

  it('a handler that reads its signal only after the deadline passed finds it aborted with the reason', async () => {
    const store = new MemoryDedupeStore();
    const timing = { ...TIMING, deadlineMs: 100, leaseMs: 600, renewEveryMs: 50 };
    let late: AbortSignal | undefined;
    const slow = async (_event: TriggerEvent, handOff: HandOff) => {
      await sleep(300);
      late = handOff.signal;
    };
    await expect(handOver(slow, event, store, await claimed(store, 600), timing)).rejects.toMatchObject({
      code: 'handler_timeout',
    });
    await sleep(400);
    expect(late?.aborted).toBe(true);
    expect(String(late?.reason)).toContain('deadline passed');
  });

  it('never releases a started event whose done mark failed: it stays done here and lands once the store is back', async () => {
    const flaky = new FlakyStore();
    const store = new DonePendingDedupeStore(flaky, { confirmWithinMs: 100, retryDelaysMs: [50] });
    const claim = await claimed(store);
    let runs = 0;
    flaky.down = true;
    await handOver(() => void runs++, event, store, claim, TIMING);
    expect(flaky.completes).toBeGreaterThan(0);
    expect(flaky.releases).toBe(0);
    // A retry of the delivery finds the event done, here, while the store still fails.
    expect(await store.claim('k', 60_000)).toEqual({ status: 'done' });
    await store.release('k', claim.token);
    expect(flaky.releases).toBe(0);
    flaky.down = false;
    expect(await store.settle(2_000)).toBe(0);
    expect(await flaky.claim('k', 60_000)).toEqual({ status: 'done' });
    expect(runs).toBe(1);
  });
});
