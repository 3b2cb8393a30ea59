import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { createExclusive } from '../../disk/create-exclusive.js';
import { TimeoutError } from '../../errors/index.js';

/**
 * A lock whose holder has not touched it for this long was left by a
 * crashed process. Holders touch their lock every quarter of this, however
 * long their work takes (a token refresh may wait on the network), so only
 * a dead holder's lock goes stale. Shorter than the give-up below, so a
 * crash delays the next refresh by seconds instead of failing it.
 */
export const LOCK_STALE_MS = 5_000;
export const LOCK_GIVE_UP_MS = 10_000;
const LOCK_POLL_MS = 15;

/** How long a waiter waits for the lock, and after how long untouched a lock counts as a crashed holder's. */
export interface LockFileTiming {
  timeoutMs: number;
  staleMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * Takes the lock file (O_EXCL), keeps it fresh while held, and returns its
 * release. A lock file that could not be written (a full disk) is removed at
 * once rather than left for the next process to wait out as a live lock.
 */
export async function takeLockFile(
  id: string,
  lock: string,
  timing: LockFileTiming,
): Promise<() => Promise<void>> {
  const token = `${process.pid}.${randomBytes(8).toString('hex')}`;
  const started = Date.now();
  for (;;) {
    if (await createExclusive(lock, token)) break;
    if (await breakIfStale(lock, timing.staleMs)) continue;
    if (Date.now() - started >= timing.timeoutMs) {
      throw new TimeoutError(
        `Timed out after ${timing.timeoutMs} ms waiting for another toolsteps process to release connection "${id}" (it may be refreshing its token). Try again.`,
        { context: { connection: id, lockFile: lock } },
      );
    }
    await sleep(LOCK_POLL_MS);
  }
  const heartbeat = setInterval(
    () => {
      const now = new Date();
      fs.utimes(lock, now, now).catch(() => undefined);
    },
    Math.max(1, Math.floor(timing.staleMs / 4)),
  );
  heartbeat.unref();
  return async () => {
    clearInterval(heartbeat);
    // Remove the lock only while it is still ours: a holder stalled past
    // the stale window may have lost it to another process.
    const current = await fs.readFile(lock, 'utf8').catch(() => undefined);
    if (current === token) await fs.rm(lock, { force: true });
  };
}

/**
 * Removes the lock when its holder stopped touching it (a crash), and
 * says whether to try taking it again at once. Two waiters can find the
 * same stale lock; a breaker file lets only one of them remove it, after
 * checking that it is still the same untouched file, so the second never
 * removes the lock the first has just taken.
 */
async function breakIfStale(lock: string, staleMs: number): Promise<boolean> {
  const seen = await fs.stat(lock).catch(() => undefined);
  if (!seen) return true;
  if (Date.now() - seen.mtimeMs <= staleMs) return false;
  const breaker = `${lock}.break`;
  if (!(await createExclusive(breaker, ''))) {
    const stuck = await fs.stat(breaker).catch(() => undefined);
    // A breaker outlives its few milliseconds only when its process crashed mid-break.
    if (stuck && Date.now() - stuck.mtimeMs > staleMs) await fs.rm(breaker, { force: true });
    return false;
  }
  try {
    const again = await fs.stat(lock).catch(() => undefined);
    if (again && again.ino === seen.ino && again.mtimeMs === seen.mtimeMs) await fs.rm(lock, { force: true });
    return true;
  } finally {
    await fs.rm(breaker, { force: true });
  }
}
