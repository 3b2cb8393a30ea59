import { createHash } from 'node:crypto';
import { appendFile, mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ClaimLog } from '../../src/disk/claim-log.js';
import { ManualClock } from '../../src/model/clock.js';
import { mountSmallDisk } from '../support/small-disk.js';
import { useTempDir } from '../support/temp-dir.js';

const dir = useTempDir('toolsteps-claim-log-');

/** A name as the dedupe store makes one: a key's SHA-256. */
const nameOf = (key: string) => createHash('sha256').update(key).digest('hex');

describe('claim log, in one process', () => {
  it('decides the claims of one turn in one write, one holder per name', async () => {
    const log = new ClaimLog(dir(), new ManualClock());
    const names = Array.from({ length: 50 }, (_, index) => nameOf(`e${index % 10}`));
    const tokens = await Promise.all(names.map((name) => log.claim(name, 1_000)));
    expect(tokens.filter(Boolean)).toHaveLength(10);
    // Fifty claims, one append: every record written in the same moment is in one write's bytes.
    const text = await readFile(path.join(dir(), 'claims-0.log'), 'latin1');
    expect(text.match(/^c /gm)).toHaveLength(50);
  });

  it('lets a lapsed claim be taken, renews and releases only its own', async () => {
    const clock = new ManualClock();
    const log = new ClaimLog(dir(), clock);
    const name = nameOf('e1');
    const first = (await log.claim(name, 1_000)) as string;
    expect(await log.claim(name, 1_000)).toBeUndefined();
    clock.advance(900);
    expect(await log.renew(name, first, 1_000)).toBe(true);
    clock.advance(900);
    expect(await log.claim(name, 1_000)).toBeUndefined();
    clock.advance(101);
    const second = (await log.claim(name, 1_000)) as string;
    expect(second).toMatch(/^[0-9a-f]{24}$/);
    expect(await log.renew(name, first, 1_000)).toBe(false);
    await log.release(name, first);
    expect(await log.claim(name, 1_000)).toBeUndefined();
    await log.release(name, second);
    expect(await log.claim(name, 1_000)).toBeDefined();
  });

  it('recovers: a log opened afresh on the directory knows every live claim, and none that lapsed', async () => {
    const clock = new ManualClock();
    const before = new ClaimLog(dir(), clock);
    await before.claim(nameOf('short'), 1_000);
    await before.claim(nameOf('long'), 60_000);
    clock.advance(2_000);
    const after = new ClaimLog(dir(), clock);
    expect(await after.claim(nameOf('long'), 1_000)).toBeUndefined();
    expect(await after.claim(nameOf('short'), 1_000)).toBeDefined();
    expect(after.lapsed()).toBe(0);
  });

  it('reads past a record a kill cut short: it counts for nothing and spoils no other', async () => {
    const clock = new ManualClock();
    const log = new ClaimLog(dir(), clock);
    await log.claim(nameOf('before'), 60_000);
    const cut = `\nc ${nameOf('cut')} ${'ab'.repeat(12)} ${clock.now()} ${clock.now() + 60_000}`;
    // Cut inside its lease's digits: without the closing mark it would read as a shorter lease.
    await appendFile(path.join(dir(), 'claims-0.log'), cut.slice(0, -3));
    await log.claim(nameOf('after'), 60_000);
    const reader = new ClaimLog(dir(), clock);
    expect(await reader.claim(nameOf('cut'), 1_000)).toBeDefined();
    expect(await reader.claim(nameOf('before'), 1_000)).toBeUndefined();
    expect(await reader.claim(nameOf('after'), 1_000)).toBeUndefined();
  });
});

describe('claim log generations', () => {
  it('seals a full generation and begins the next with the claims still held; those two back are emptied', async () => {
    const clock = new ManualClock();
    const log = new ClaimLog(dir(), clock, { rotateAtBytes: 2_000 });
    const held = (await log.claim(nameOf('held'), 3_600_000)) as string;
    await log.claim(nameOf('lapses'), 1_000);
    clock.advance(1_001);
    for (let round = 0; round < 60; round += 1) {
      const name = nameOf(`churn${round}`);
      await log.release(name, (await log.claim(name, 1_000)) as string);
    }
    const files = await readdir(dir());
    expect(files.every((file) => /^claims-\d+\.log$/.test(file))).toBe(true);
    const newest = Math.max(...files.map((file) => Number(/\d+/.exec(file)?.[0])));
    expect(newest).toBeGreaterThan(2);
    // Those two back and more hold a tombstone, a seal alone: their names stay taken, their claims go.
    for (let generation = 0; generation < newest - 2; generation += 1) {
      expect(await readFile(path.join(dir(), `claims-${generation}.log`), 'latin1')).toBe('\ns 0 $\n');
    }
    const fresh = new ClaimLog(dir(), clock);
    expect(await fresh.claim(nameOf('held'), 1_000)).toBeUndefined();
    expect(await fresh.claim(nameOf('lapses'), 1_000)).toBeDefined();
    // Its holder still renews it, in whatever generation is current.
    expect(await log.renew(nameOf('held'), held, 3_600_000)).toBe(true);
  });

  it('writes again in the next generation a record that landed after the seal', async () => {
    const clock = new ManualClock();
    const early = new ClaimLog(dir(), clock);
    await early.claim(nameOf('first'), 60_000);
    // Another process seals generation 0 while this one still appends to it.
    const sealer = new ClaimLog(dir(), clock, { rotateAtBytes: 1 });
    await sealer.claim(nameOf('sealer'), 60_000);
    expect((await readdir(dir())).sort()).toEqual(['claims-0.log', 'claims-1.log']);
    const late = (await early.claim(nameOf('late'), 60_000)) as string;
    expect(late).toBeDefined();
    expect(await readFile(path.join(dir(), 'claims-1.log'), 'latin1')).toContain(late);
    expect(await sealer.claim(nameOf('late'), 60_000)).toBeUndefined();
  });
});

const disk = await mountSmallDisk(64 * 1024);
const mounted = 'dir' in disk ? disk : undefined;
const skipped = 'unavailable' in disk ? ` (skipped: ${disk.unavailable})` : '';

describe.skipIf(!mounted)(`claim log on a full disk (a tmpfs of 64 KiB)${skipped}`, () => {
  const small = mounted as NonNullable<typeof mounted>;
  afterAll(() => small.unmount());

  it('fails the claims the disk would not take, then claims again once there is room, its holders intact', async () => {
    const directory = path.join(small.dir, 'claims');
    await mkdir(directory, { recursive: true });
    const clock = new ManualClock();
    const log = new ClaimLog(directory, clock);
    const held = await log.claim(nameOf('held'), 60_000);
    await small.fill(0);
    const refused = await Promise.allSettled(
      Array.from({ length: 200 }, (_, index) => log.claim(nameOf(`full${index}`), 60_000)),
    );
    expect(refused.some((one) => one.status === 'rejected' && /ENOSPC/.test(String(one.reason)))).toBe(true);
    await small.free();
    const again = new ClaimLog(directory, clock);
    expect(await again.claim(nameOf('held'), 1_000)).toBeUndefined();
    expect(await again.claim(nameOf('after'), 1_000)).toBeDefined();
    expect(await log.renew(nameOf('held'), held as string, 60_000)).toBe(true);
  });
});
