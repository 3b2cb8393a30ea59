import { type BigIntStats, lstatSync } from 'node:fs';
import { copyRecord } from '../values/copy-record.js';

/**
 * A file whose status changed this recently may change again within the
 * same timestamp tick (Linux stamps files from a coarse clock, a few ms;
 * some filesystems in whole seconds), which a stamp could not tell apart:
 * git's "racily clean" problem. Such a file is read again on every call
 * until it has been still for this long on a filesystem that stamps in
 * whole seconds (`FINE_SETTLE_MS` on one that stamps finer).
 */
export const SETTLE_MS = 2_000;

/**
 * How long a file must be still on a filesystem that stamps finer than a
 * second (ext4, xfs, btrfs, tmpfs, NTFS, exFAT: a clock tick of a few ms,
 * 10 ms at the coarsest): ten ticks. Waiting the whole `SETTLE_MS` there
 * made every get for two seconds after a write (a connection's `lastUsedAt`,
 * recorded on its first call of the hour) open, read and check the file again.
 */
export const FINE_SETTLE_MS = 100;

const SECOND_NS = 1_000_000_000n;

/**
 * Whether the filesystem stamps this file finer than a second. A stamp with
 * nanoseconds says so; one that lands on a whole second is taken for a
 * coarse filesystem (and one time in a billion, a fine one that happened to:
 * that file only waits the longer settle).
 */
function finelyStamped(stats: BigIntStats): boolean {
  return stats.mtimeNs % SECOND_NS !== 0n || stats.ctimeNs % SECOND_NS !== 0n;
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** What tells one version of a file from another: every write changes one of these. */
function stampOf(stats: BigIntStats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
}

/**
 * Records read from their files, kept as long as each file's stamp (device,
 * inode, size, modification and change times, in nanoseconds) stays the
 * same. Reading, checking and parsing a record file on every use costs
 * far more CPU than one `lstat` (docs/benchmarks.md, "Figures behind the
 * code"). The `lstat` is synchronous on purpose: a stat of a local file
 * takes microseconds, while the promise form costs more CPU in the thread
 * pool hop than the stat itself. Every change is still seen on the next
 * call: a store's own writes rename a new file into place (a new inode and
 * change time), an editor's write in place moves the size or the times, and
 * a file changed within its settle time (`SETTLE_MS`, `FINE_SETTLE_MS`) is never served from here (see above).
 * A link or anything else that is not a regular file goes to `load`, whose
 * refusal (or reading) stands. Callers get a copy; the kept record stays as read.
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
    const settleMs = finelyStamped(stats) ? FINE_SETTLE_MS : SETTLE_MS;
    const settled = this.now() - Number(stats.ctimeNs / 1_000_000n) > settleMs;
    if (record === undefined || !stats.isFile() || !settled) return record;
    this.entries.set(file, { stamp, record });
    return copyRecord(record);
  }

  /** Forgets a file this process changed or removed (its next read would see the change anyway). */
  forget(file: string): void {
    this.entries.delete(file);
  }
}
