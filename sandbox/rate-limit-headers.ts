import type { WindowVerdict } from './fixed-window-limiter.js';

/** Whole seconds until the window refills, never 0: what Retry-After and RateLimit-Reset say. */
export function secondsToReset(verdict: WindowVerdict, now: number): number {
  return Math.max(1, Math.ceil((verdict.resetAt - now) / 1000));
}

/**
 * The IETF draft's quota headers (RateLimit-Limit, -Remaining, and -Reset in
 * seconds from now), which more than one emulated provider sends.
 */
export function draftRateLimitHeaders(verdict: WindowVerdict, now: number): Record<string, string> {
  return {
    'ratelimit-limit': String(verdict.limit),
    'ratelimit-remaining': String(verdict.remaining),
    'ratelimit-reset': String(secondsToReset(verdict, now)),
  };
}
