import { lstatSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FINE_SETTLE_MS, SETTLE_MS, StampedFileCache } from '../../src/disk/stamped-file-cache.js';
import { useTempDir } from '../support/temp-dir.js';

/** Whether the filesystem under `file` stamps it finer than a second (tmpfs, ext4 and the like do). */
function finelyStamped(file: string): boolean {
  const stats = lstatSync(file, { bigint: true });
  return stats.mtimeNs % 1_000_000_000n !== 0n || stats.ctimeNs % 1_000_000_000n !== 0n;
}

describe('StampedFileCache: how long a changed file is read again', () => {
  const home = useTempDir('toolsteps-stamped-');

  it('keeps a file still for longer than a fine settle, well inside the whole-second one, on a finely stamping filesystem', async (context) => {
    const file = path.join(home(), 'record.json');
    await writeFile(file, '{"n":1}');
    if (!finelyStamped(file)) context.skip('this filesystem stamps in whole seconds');
    // Changed half a second ago, by this clock: settled for a filesystem that stamps in ms, not for one that stamps in seconds.
    const cache = new StampedFileCache<{ n: number }>(() => Date.now() + 500);
    let loads = 0;
    const load = async () => {
      loads += 1;
      return { n: 1 };
    };
    expect(FINE_SETTLE_MS).toBeLessThan(500);
    expect(SETTLE_MS).toBeGreaterThan(500);
    expect(await cache.read(file, load)).toEqual({ n: 1 });
    expect(await cache.read(file, load)).toEqual({ n: 1 });
    expect(loads).toBe(1);
  });

  it('reads a file changed within the fine settle again on every call, and sees a rewrite in place', async () => {
    const file = path.join(home(), 'record.json');
    await writeFile(file, '{"n":1}');
    const cache = new StampedFileCache<string>(() => Date.now());
    let loads = 0;
    const load = async () => {
      loads += 1;
      return String(loads);
    };
    await cache.read(file, load);
    await cache.read(file, load);
    expect(loads).toBe(2);
    await writeFile(file, '{"n":2}');
    expect(await cache.read(file, load)).toBe('3');
  });
});
