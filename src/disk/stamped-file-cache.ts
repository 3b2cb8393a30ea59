import { type BigIntStats, lstatSync } from 'node:fs';
import { copyRecord } from '../values/copy-record.js';

/**
 * A file whose status changed this recently may change again within the
 * same timestamp tick (Linux stamps files from a coarse clock, a few ms;
 * some filesystems in whole seconds), which a stamp could not tell apart:
 * git's "racily clean" problem. Such a file is read again on every call
 * until it has been still for this long.
 */
export const SETTLE_MS = 2_000;

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** What tells one version of a file from another: every write changes one of these. */
function stampOf(stats: BigIntStats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
}

/**
 * Records read from their files, kept as long as each file's stamp (device,
 * inode, size, modification and change times, in nanoseconds) stays the
 * same. Reading, checking and parsing a record file on every use cost
 * several hundred microseconds of CPU; one `lstat` costs a few. The `lstat`
 * is synchronous on purpose: a stat of a local file takes microseconds,
 * while the promise form costs more CPU in the thread pool hop than the
 * stat itself. Every change is still seen on the next call: a store's own
 * writes rename a new file into place (a new inode and change time), an
 * editor's write in place moves the size or the times, and a file changed
 * within `SETTLE_MS` is never served from here (see above). A link or
 * anything else that is not a regular file goes to `load`, whose refusal
 * (or reading) stands. Callers get a copy; the kept record stays as read.
 */
export class StampedFileCache<T> {
  private readonly entries = new Map<string, { stamp: string; record: T }>();

  constructor(private readonly now: () => number) {}

  /** The record in `file`, from `load` when the file changed (or is new to this cache). */
  async read(file: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
    let stats: BigIntStats;
    try {
      stats = lstatSync(file, { bigint: true });
    } catch (error) {
      this.entries.delete(file);
      if (errorCode(error) === 'ENOENT') return undefined;
      return load();
    }
    const stamp = stampOf(stats);
    const kept = this.entries.get(file);
    if (kept?.stamp === stamp && stats.isFile()) return copyRecord(kept.record);
    this.entries.delete(file);
    const record = await load();
    // Settled: changed longer ago than a tick could hide. The stamp is from before the read, so a write that lands during it changes the stamp the next call sees.
    const settled = this.now() - Number(stats.ctimeNs / 1_000_000n) > SETTLE_MS;
    if (record === undefined || !stats.isFile() || !settled) return record;
    this.entries.set(file, { stamp, record });
    return copyRecord(record);
  }

  /** Forgets a file this process changed or removed (its next read would see the change anyway). */
  forget(file: string): void {
    this.entries.delete(file);
  }
}
