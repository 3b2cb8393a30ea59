import { type Clock, systemClock } from '../model/clock.js';
import { ApiRefusal } from './api-refusal.js';

export interface TokenRateLimitOptions {
  /**
   * Requests one token may make per window. Default 600 (ten a second):
   * room for a person working quickly (each search, form and options list is
   * a request, and a sign-in is polled while it lasts), while a looping page
   * or a stolen token is still held back.
   */
  requests?: number;
  /** Default one minute. */
  windowMs?: number;
  clock?: Clock;
}

/** Tokens tracked at once; past it the oldest windows are forgotten, so a flood of tokens cannot grow memory. */
const MAX_TRACKED = 10_000;

/**
 * A fixed window per token id: a page that loops (or a stolen token) is
 * slowed to `requests` per window, with Retry-After, before it reaches a
 * provider or the stores.
 */
export class TokenRateLimit {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private readonly requests: number;
  private readonly windowMs: number;
  private readonly clock: Clock;

  constructor(options: TokenRateLimitOptions = {}) {
    this.requests = options.requests ?? 600;
    this.windowMs = options.windowMs ?? 60_000;
    this.clock = options.clock ?? systemClock;
  }

  /** Counts one request of the token; refuses it with 429 past the limit. */
  take(tokenId: string): void {
    const now = this.clock.now();
    let window = this.windows.get(tokenId);
    if (!window || now - window.start >= this.windowMs) {
      if (!window && this.windows.size >= MAX_TRACKED) this.windows.delete(this.windows.keys().next().value!);
      window = { start: now, count: 0 };
      this.windows.set(tokenId, window);
    }
    window.count += 1;
    if (window.count > this.requests) {
      const retryAfterMs = window.start + this.windowMs - now;
      throw new ApiRefusal(
        429,
        'rate_limited',
        'Too many requests with this token; wait and try again.',
        [],
        retryAfterMs,
      );
    }
  }
}
