/** A lock held by one owner: only the holder of `token` can extend or release it. */
export interface HeldLock {
  name: string;
  token: string;
}

/**
 * Owner-token locks shared by every worker: what a store needs of the
 * coordination to serialise writes to one record (a token refresh), without
 * knowing whether the locks live in this process or in Redis.
 */
export interface Locks {
  /** Takes `name` for `ttlMs` if nobody holds it (Redis: SET NX PX); undefined when held. */
  tryLock(name: string, ttlMs: number): Promise<HeldLock | undefined>;
  /** Gives `ttlMs` more to a lock still held by `lock.token`; false when it was lost (compare-and-extend). */
  extendLock(lock: HeldLock, ttlMs: number): Promise<boolean>;
  /** Releases a lock only while `lock.token` still holds it (compare-and-delete, never a plain DEL). */
  releaseLock(lock: HeldLock): Promise<boolean>;
}
