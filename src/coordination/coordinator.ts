import type { Locks } from '../model/locks.js';
import type { TenantId } from '../model/tenant-id.js';
import type { DedupeStore } from '../store/dedupe-store.js';
import type { RedisPersistence } from './redis-persistence.js';

export type { HeldLock } from '../model/locks.js';

/** One quota window as a provider's headers last described it (times are epoch ms of the caller's clock). */
export interface QuotaObservation {
  name: string;
  remaining: number;
  limit?: number;
  resetAt?: number;
}

/** What a shared quota says about one more request: send it now, or not before `retryAt`. */
export type QuotaVerdict = { allowed: true } | { allowed: false; retryAt: number };

/** What the doctor reports, and docs/many-workers.md describes. */
export interface CoordinationStatus {
  mode: 'local' | 'redis';
  /** Whether the shared store answered (always true for the in-process mode). */
  reachable: boolean;
  /** Where the shared store is, without credentials. */
  where: string;
  detail?: string;
  /** Redis only, when it answered (`describeCoordination`): what it keeps across a restart. */
  persistence?: RedisPersistence;
}

/**
 * Every rule that must hold across workers goes through this one interface:
 * owner-token locks, mark-once records with a TTL (webhook dedupe,
 * idempotency records), shared quota state per connection and window, credit
 * counters, and a small key-value store. The in-process implementation keeps
 * today's single-process behaviour; the Redis one makes each operation one
 * atomic command or Lua script, so many processes on many hosts agree.
 */
export interface Coordinator extends DedupeStore, Locks {
  readonly mode: 'local' | 'redis';
  /** Lets one request of `scope` go (it is then in flight), or says when to look again. */
  takeQuota(scope: string, now: number): Promise<QuotaVerdict>;
  /**
   * Folds what an answer's headers said into the shared quota of `scope`.
   * `settles`: the answer of a request `takeQuota` let through (or its loss),
   * which is no longer in flight; false for a redirect hop's answer.
   */
  observeQuota(scope: string, windows: QuotaObservation[], now: number, settles: boolean): Promise<void>;
  /**
   * Adds `amount` to the counter `key` if the total stays within `limit`;
   * returns whether it did and the total after. A negative amount gives back.
   */
  addWithinLimit(
    key: string,
    amount: number,
    limit: number,
    ttlMs: number,
  ): Promise<{ added: boolean; total: number }>;
  /** A shared value (a provider's last rate-limit reading), or undefined once its time to live has passed. */
  getValue(key: string): Promise<string | undefined>;
  /** Shares a value with every worker for `ttlMs`; it expires rather than lingering after the workers stop. */
  setValue(key: string, value: string, ttlMs: number): Promise<void>;
  /** Sets `key` to `next` only while it holds `expected` (undefined: only while absent). */
  compareAndSet(key: string, expected: string | undefined, next: string, ttlMs: number): Promise<boolean>;
  /**
   * The same coordination, with every lock, record, quota and counter kept
   * apart for one tenant: two tenants' connection `support` have two rate
   * gates, two tenants' idempotency key `k` two records. `DEFAULT_TENANT`
   * answers this coordinator itself, so what was stored before tenants
   * existed stays where it was. Closing the coordinator closes them all.
   */
  forTenant(tenant: TenantId): Coordinator;
  /** What `toolsteps doctor` reports: which backend coordinates, and whether it answers. */
  status(): Promise<CoordinationStatus>;
  /** Releases the connection (Redis) so a process can exit; locks held are left to expire. */
  close(): Promise<void>;
}
