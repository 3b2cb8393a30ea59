import { TimeoutError } from '../errors/index.js';
import type { HeldLock, Locks } from '../model/locks.js';

export interface LockOptions {
  /** How long the lock lives without a heartbeat: a holder that dies (SIGKILL) loses it after this. */
  ttlMs: number;
  /** How long to wait for another holder before failing with a retryable TimeoutError. */
  waitMs: number;
  /** Between two tries while another holder has it. */
  pollMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work` holding the lock `name`: takes it (SET NX PX), extends it every
 * third of its TTL while `work` runs however long that is (compare-and-extend),
 * and releases it after (compare-and-delete). Real time throughout, whatever
 * clock the caller's runtime uses.
 */
export async function withLock<T>(
  locks: Locks,
  name: string,
  work: () => Promise<T>,
  options: LockOptions,
): Promise<T> {
  const started = Date.now();
  let lock: HeldLock | undefined;
  for (;;) {
    lock = await locks.tryLock(name, options.ttlMs);
    if (lock) break;
    if (Date.now() - started >= options.waitMs) {
      throw new TimeoutError(
        `Waited ${options.waitMs} ms for another worker to release "${name}" (it may be refreshing a token). Try again.`,
        { retryable: true, context: { lock: name } },
      );
    }
    await sleep((options.pollMs ?? 50) * (0.5 + Math.random()));
  }
  const held = lock;
  const heartbeat = setInterval(
    () => {
      locks.extendLock(held, options.ttlMs).catch(() => undefined);
    },
    Math.max(1, Math.floor(options.ttlMs / 3)),
  );
  heartbeat.unref();
  try {
    return await work();
  } finally {
    clearInterval(heartbeat);
    await locks.releaseLock(held).catch(() => undefined);
  }
}
