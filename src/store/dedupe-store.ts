/** What a claim found: the event is ours to start, was already handled, or is being handled now. */
export type ClaimOutcome =
  | { status: 'claimed'; token: string }
  | { status: 'done' }
  | { status: 'in_flight' };

/**
 * Remembers which provider events were handled, so a retried or duplicated
 * delivery starts nothing. Every operation maps to one atomic command of a
 * shared store (Redis: `SET key token NX PX lease`, a compare-and-set to
 * `done` with a TTL, a compare-and-delete), so a Redis implementation can
 * serve many workers behind this same interface.
 */
export interface DedupeStore {
  /**
   * Takes `key` for handling for `leaseMs`. While the lease runs, other
   * claims see `in_flight`; a claim whose holder died expires with its lease.
   */
  claim(key: string, leaseMs: number): Promise<ClaimOutcome>;
  /**
   * Gives a claim still held by `token` a fresh lease of `leaseMs`; false
   * when it is no longer ours (it lapsed and was taken, or is done). The
   * holder renews a short lease while it works, so a claim outlives its
   * holder by one lease at most.
   */
  renew(key: string, token: string, leaseMs: number): Promise<boolean>;
  /** The handler finished: the key stays `done` for `ttlMs`, so retries are duplicates. */
  complete(key: string, token: string, ttlMs: number): Promise<void>;
  /** The handler failed: forgets the claim (only if still ours) so the provider's retry can start it. */
  release(key: string, token: string): Promise<void>;
  /** Records `key` as done for `ttlMs`; true the first time, false for a duplicate. */
  markOnce(key: string, ttlMs: number): Promise<boolean>;
}
