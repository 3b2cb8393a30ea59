import { appendFile, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/model/clock.js';
import type { DedupeStore } from '../../../src/store/dedupe-store.js';
import { FileDedupeStore } from '../../../src/store/files/file-dedupe-store.js';
import { MemoryDedupeStore } from '../../../src/store/memory/memory-dedupe-store.js';
import { useTempDir } from '../../support/temp-dir.js';

const home = useTempDir('toolsteps-dedupe-');

const stores: [string, (clock: ManualClock) => DedupeStore][] = [
  ['memory', (clock) => new MemoryDedupeStore(clock)],
  ['file', (clock) => new FileDedupeStore(home(), clock)],
];

/** A store of `make` on a manual clock, holding a claim of `sub:e1` with a one-second lease: the claim's token with them. */
async function holdingAClaim(make: (clock: ManualClock) => DedupeStore) {
  const clock = new ManualClock();
  const store = make(clock);
  const first = await store.claim('sub:e1', 1_000);
  if (first.status !== 'claimed') throw new Error('expected a claim');
  return { clock, store, token: first.token };
}

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
    const { clock, store, token } = await holdingAClaim(make);
    clock.advance(1_001);
    const second = await store.claim('sub:e1', 1_000);
    await store.release('sub:e1', token);
    expect(second.status).toBe('claimed');
    expect(await store.claim('sub:e1', 1_000)).toEqual({ status: 'in_flight' });
  });
});

describe.each(stores)('%s dedupe store: renewing a claim', (_name, make) => {
  it('renews only its own live claim, and a renewed claim outlives its first lease', async () => {
    const { clock, store, token } = await holdingAClaim(make);
    expect(await store.renew('sub:e1', 'not-the-holder', 1_000)).toBe(false);
    clock.advance(900);
    expect(await store.renew('sub:e1', token, 1_000)).toBe(true);
    clock.advance(900);
    expect(await store.claim('sub:e1', 1_000)).toEqual({ status: 'in_flight' });
  });

  it('cannot renew a claim that lapsed or is done', async () => {
    const { clock, store, token } = await holdingAClaim(make);
    clock.advance(1_001);
    expect(await store.renew('sub:e1', token, 1_000)).toBe(false);
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
    expect(await new FileDedupeStore(home(), clock).markOnce('sub:e1', 60_000)).toBe(true);
    expect(await new FileDedupeStore(home(), clock).markOnce('sub:e1', 60_000)).toBe(false);
  });

  it('keeps provider text out of file names, and its files private', async () => {
    const store = new FileDedupeStore(home(), new ManualClock());
    const claimed = await store.claim('sub:../../etc/passwd', 60_000);
    const directory = path.join(home(), 'triggers', 'dedupe');
    // Claims go to the claim log, decided by the key's SHA-256 (was: a file per claim, named by it).
    expect((await readdir(directory)).sort()).toEqual(['claims', 'journal']);
    const [log] = await readdir(path.join(directory, 'claims'));
    expect(log).toBe('claims-0.log');
    expect((await stat(path.join(directory, 'claims', log!))).mode & 0o777).toBe(0o600);
    expect((await stat(path.join(directory, 'claims'))).mode & 0o777).toBe(0o700);
    expect(await readFile(path.join(directory, 'claims', log!), 'utf8')).not.toContain('passwd');
    if (claimed.status !== 'claimed') throw new Error('expected a claim');
    await store.complete('sub:../../etc/passwd', claimed.token, 60_000);
    const journal = path.join(directory, 'journal');
    const [day] = await readdir(journal);
    expect(day).toMatch(/^done-\d{4}-\d{2}-\d{2}\.log$/);
    expect((await stat(path.join(journal, day!))).mode & 0o777).toBe(0o600);
    expect((await stat(journal)).mode & 0o777).toBe(0o700);
    expect((await readdir(directory, { recursive: true })).join(' ')).not.toContain('passwd');
  });

  it('prunes expired entries: lapsed claims and expired marks', async () => {
    const clock = new ManualClock();
    const store = new FileDedupeStore(home(), clock);
    await store.markOnce('a', 1_000);
    await store.markOnce('b', 60_000);
    await store.claim('c', 1_000);
    clock.advance(2_000);
    expect(await store.prune()).toBe(1);
    expect(await store.markOnce('b', 60_000)).toBe(false);
    expect(await store.markOnce('a', 60_000)).toBe(true);
  });
});

describe('file dedupe store: done marks in a synced journal', () => {
  const directory = () => path.join(home(), 'triggers', 'dedupe');

  it('still knows a handled event whose own file a power cut lost: the journal holds the mark', async () => {
    const clock = new ManualClock();
    expect(await new FileDedupeStore(home(), clock).markOnce('sub:e1', 60_000)).toBe(true);
    for (const name of await readdir(directory())) {
      if (name.endsWith('.json')) await rm(path.join(directory(), name));
    }
    expect(await new FileDedupeStore(home(), clock).claim('sub:e1', 1_000)).toEqual({ status: 'done' });
    clock.advance(60_001);
    expect((await new FileDedupeStore(home(), clock).claim('sub:e1', 1_000)).status).toBe('claimed');
  });

  it('gives concurrent claims of one event one holder, and journals every concurrent mark', async () => {
    const store = new FileDedupeStore(home(), new ManualClock());
    const claims = await Promise.all(Array.from({ length: 8 }, () => store.claim('sub:same', 1_000)));
    expect(claims.filter((claim) => claim.status === 'claimed')).toHaveLength(1);
    const keys = Array.from({ length: 40 }, (_, index) => `sub:e${index}`);
    expect(await Promise.all(keys.map((key) => store.markOnce(key, 60_000)))).toEqual(keys.map(() => true));
    const reopened = new FileDedupeStore(home(), new ManualClock());
    for (const name of await readdir(directory())) {
      if (name.endsWith('.json')) await rm(path.join(directory(), name));
    }
    const again = await Promise.all(keys.map((key) => reopened.claim(key, 1_000)));
    expect(again.every((claim) => claim.status === 'done')).toBe(true);
  });

  it('sees a mark another process made after it read the journals, once that claim is gone', async () => {
    const clock = new ManualClock();
    const here = new FileDedupeStore(home(), clock);
    const there = new FileDedupeStore(home(), clock);
    expect(await here.markOnce('sub:e0', 60_000)).toBe(true);
    const claimed = await there.claim('sub:e1', 1_000);
    expect(await here.claim('sub:e1', 1_000)).toEqual({ status: 'in_flight' });
    if (claimed.status !== 'claimed') throw new Error('expected a claim');
    await there.complete('sub:e1', claimed.token, 60_000);
    expect(await here.claim('sub:e1', 1_000)).toEqual({ status: 'done' });
  });

  it('reads every whole line after one a power cut left half written', async () => {
    const clock = new ManualClock();
    await new FileDedupeStore(home(), clock).markOnce('sub:e1', 60_000);
    const [day] = await readdir(path.join(directory(), 'journal'));
    // Half an append: each starts a line of its own, so the next append's line is whole.
    await appendFile(path.join(directory(), 'journal', day!), `\n${'3f2a9c'.repeat(6)}`);
    await new FileDedupeStore(home(), clock).markOnce('sub:e2', 60_000);
    for (const name of await readdir(directory())) {
      if (name.endsWith('.json')) await rm(path.join(directory(), name));
    }
    const store = new FileDedupeStore(home(), clock);
    expect(await store.claim('sub:e1', 1_000)).toEqual({ status: 'done' });
    expect(await store.claim('sub:e2', 1_000)).toEqual({ status: 'done' });
  });

  it("prunes an earlier day's journal once every mark in it expired, never today's or yesterday's", async () => {
    const clock = new ManualClock(Date.parse('2026-01-01T12:00:00Z'));
    const store = new FileDedupeStore(home(), clock);
    await store.markOnce('sub:old', 60_000);
    const journals = async () => (await readdir(path.join(directory(), 'journal'))).sort();
    expect(await journals()).toEqual(['done-2026-01-01.log']);
    clock.advance(24 * 60 * 60_000);
    await store.markOnce('sub:new', 60_000);
    // Yesterday's stays: a process may still be appending to it.
    expect(await journals()).toEqual(['done-2026-01-01.log', 'done-2026-01-02.log']);
    clock.advance(24 * 60 * 60_000);
    // A claim sweeps now and then: the first day's marks have all expired.
    await store.markOnce('sub:newer', 60_000);
    expect(await journals()).toEqual(['done-2026-01-02.log', 'done-2026-01-03.log']);
  });
});
