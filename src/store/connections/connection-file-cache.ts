import { type BigIntStats, lstatSync } from 'node:fs';
import type { Connection } from '../../connection/connection.js';
import { copyRecord } from '../copy-record.js';
import { readConnectionFile } from './read-connection-file.js';

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
 * The connections read from their files, kept as long as each file's stamp
 * (device, inode, size, modification and change times, in nanoseconds)
 * stays the same. Reading, checking and parsing a connection file on every
 * invocation cost several hundred microseconds of CPU; one `lstat` costs a
 * few. The `lstat` is synchronous on purpose: a stat of a local file takes
 * microseconds, while the promise form costs more CPU in the thread pool
 * hop than the stat itself. Every change is still seen on the next call:
 * the store's own writes rename a new file into place (a new inode and
 * change time), an editor's write in place moves the size or the times, and
 * a file changed within `SETTLE_MS` is never served from here (see above).
 * A link or anything else that is not a regular file goes to
 * `readConnectionFile`, which refuses it.
 */
export class ConnectionFileCache {
  private readonly entries = new Map<string, { stamp: string; connection: Connection }>();

  constructor(private readonly now: () => number) {}

  async read(file: string, id: string): Promise<Connection | undefined> {
    let stats: BigIntStats;
    try {
      stats = lstatSync(file, { bigint: true });
    } catch (error) {
      this.entries.delete(file);
      if (errorCode(error) === 'ENOENT') return undefined;
      return readConnectionFile(file, id);
    }
    const stamp = stampOf(stats);
    const kept = this.entries.get(file);
    if (kept?.stamp === stamp && stats.isFile()) return copyRecord(kept.connection);
    this.entries.delete(file);
    const connection = await readConnectionFile(file, id);
    // Settled: changed longer ago than a tick could hide. The stamp is from before the read, so a write that lands during it changes the stamp the next call sees.
    const settled = this.now() - Number(stats.ctimeNs / 1_000_000n) > SETTLE_MS;
    if (!connection || !stats.isFile() || !settled) return connection;
    this.entries.set(file, { stamp, connection });
    return copyRecord(connection);
  }

  /** Forgets a file this process changed or removed (its next read would see the change anyway). */
  forget(file: string): void {
    this.entries.delete(file);
  }
}
