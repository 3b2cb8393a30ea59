import type { RateLimitSnapshot } from './rate-limit.js';

/**
 * What the transport needs of a rate gate. `RateGate` keeps one process's
 * count; `SharedRateGate` (src/coordination) keeps one count for every
 * worker in Redis. Its reports may be asynchronous, so the transport awaits them.
 */
export interface Gate {
  /** Resolves when a request may be sent, with how many times the caller waited. */
  acquire(signal?: AbortSignal): Promise<number>;
  /** Once per request let through, with what its answer's headers say. */
  observe(snapshot: RateLimitSnapshot | undefined): void | Promise<void>;
  /** An answer that does not settle a request of ours (a redirect hop). */
  learn(snapshot: RateLimitSnapshot | undefined): void | Promise<void>;
  /** A request let through ended without an answer. */
  abandon(): void | Promise<void>;
}
