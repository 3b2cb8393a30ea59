import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import type { DedupeStore } from '../../../src/store/dedupe/dedupe-store.js';
import { FileDedupeStore } from '../../../src/store/dedupe/file-dedupe-store.js';
import { MemoryDedupeStore } from '../../../src/store/dedupe/memory-dedupe-store.js';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-dedupe-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const stores: [string, (clock: ManualClock) => DedupeStore][] = [
  ['memory', (clock) => new MemoryDedupeStore(clock)],
  ['file', (clock) => new FileDedupeStore(home, clock)],
];

describe.each(stores)('%s dedupe store', (_name, make) => {
  it('claims once: a second claim is in flight until the first completes, then done', async () => {
    const clock = new ManualClock();
    const store = make(clock);
    const first = await store.claim('sub:e1', 1_000);
    expect(first.status).toBe('claimed');
    expect(await store.claim('sub:e1', 1_000)).toEqual({ status: 'in_flight' });
    if (first.status !== 'claimed') return;
    await store.complete('sub:e1', first.token, 60_000);
    expect(await store.claim('sub:e1', 1_000)).toEqual({ status: 'done' });
  });

  it('lets a claim whose holder died expire with its lease', async () => {
    const clock = new ManualClock();
    const store = make(clock);
    await store.claim('sub:e1', 1_000);
    clock.advance(1_001);
    expect((await store.claim('sub:e1', 1_000)).status).toBe('claimed');
  });

  it('forgets a done event after its TTL', async () => {
    const clock = new ManualClock();
    const store = make(clock);
    expect(await store.markOnce('sub:e1', 60_000)).toBe(true);
    expect(await store.markOnce('sub:e1', 60_000)).toBe(false);
    clock.advance(60_001);
    expect(await store.markOnce('sub:e1', 60_000)).toBe(true);
  });

  it('releases only its own claim', async () => {
    const clock = new ManualClock();
    const store = make(clock);
    const first = await store.claim('sub:e1', 1_000);
    if (first.status !== 'claimed') throw new Error('expected a claim');
    clock.advance(1_001);
    const second = await store.claim('sub:e1', 1_000);
    await store.release('sub:e1', first.token);
    expect(second.status).toBe('claimed');
    expect(await store.claim('sub:e1', 1_000)).toEqual({ status: 'in_flight' });
  });
});

describe.each(stores)('%s dedupe store: renewing a claim', (_name, make) => {
  it('renews only its own live claim, and a renewed claim outlives its first lease', async () => {
    const clock = new ManualClock();
    const store = make(clock);
    const first = await store.claim('sub:e1', 1_000);
    if (first.status !== 'claimed') throw new Error('expected a claim');
    expect(await store.renew('sub:e1', 'not-the-holder', 1_000)).toBe(false);
    clock.advance(900);
    expect(await store.renew('sub:e1', first.token, 1_000)).toBe(true);
    clock.advance(900);
    expect(await store.claim('sub:e1', 1_000)).toEqual({ status: 'in_flight' });
  });

  it('cannot renew a claim that lapsed or is done', async () => {
    const clock = new ManualClock();
    const store = make(clock);
    const first = await store.claim('sub:e1', 1_000);
    if (first.status !== 'claimed') throw new Error('expected a claim');
    clock.advance(1_001);
    expect(await store.renew('sub:e1', first.token, 1_000)).toBe(false);
    const second = await store.claim('sub:e1', 1_000);
    if (second.status !== 'claimed') throw new Error('expected a claim');
    await store.complete('sub:e1', second.token, 60_000);
    expect(await store.renew('sub:e1', second.token, 1_000)).toBe(false);
    expect(await store.claim('sub:e1', 1_000)).toEqual({ status: 'done' });
  });
});

describe('file dedupe store', () => {
  it('survives a restart: a new store over the same home knows the handled event', async () => {
    const clock = new ManualClock();
    expect(await new FileDedupeStore(home, clock).markOnce('sub:e1', 60_000)).toBe(true);
    expect(await new FileDedupeStore(home, clock).markOnce('sub:e1', 60_000)).toBe(false);
  });

  it('keeps provider text out of file names, and its files private', async () => {
    await new FileDedupeStore(home, new ManualClock()).markOnce('sub:../../etc/passwd', 60_000);
    const directory = path.join(home, 'triggers', 'dedupe');
    const [name] = await readdir(directory);
    expect(name).toMatch(/^[0-9a-f]{64}\.json$/);
    expect((await stat(path.join(directory, name!))).mode & 0o777).toBe(0o600);
  });

  it('prunes expired entries', async () => {
    const clock = new ManualClock();
    const store = new FileDedupeStore(home, clock);
    await store.markOnce('a', 1_000);
    await store.markOnce('b', 60_000);
    clock.advance(2_000);
    expect(await store.prune()).toBe(1);
    expect(await store.markOnce('b', 60_000)).toBe(false);
  });
});
