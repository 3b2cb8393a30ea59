import type { RateWindow } from '../server/rate-limit.js';

export interface TokenRateLimitOptions {
  /**
   * Requests one token may make per window. Default 600 (ten a second):
   * room for a person working quickly (each search, form and options list is
   * a request, and a sign-in is polled while it lasts), while a looping page
   * or a stolen token is still held back.
   */
  requests?: number | undefined;
  /** Default one minute. */
  windowMs?: number | undefined;
}

/** Tokens tracked at once; past it the oldest windows are forgotten, so a flood of tokens cannot grow memory. */
const MAX_TRACKED = 10_000;

/**
 * Each token's window: a page that loops (or a stolen token) is slowed to
 * `requests` per window, with Retry-After, before it reaches a provider or
 * the stores. Counted once the token is verified, so a forged token cannot
 * spend another's requests.
 */
export function tokenWindow(options: TokenRateLimitOptions = {}): RateWindow {
  return { requests: options.requests ?? 600, windowMs: options.windowMs ?? 60_000, maxTracked: MAX_TRACKED };
}
