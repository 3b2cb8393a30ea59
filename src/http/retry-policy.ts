import { RateLimitError, type ToolstepsError } from '../errors/index.js';

export interface RetryOptions {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Longest `Retry-After` we wait for; a longer one fails at once. */
  maxRetryAfterMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
  random: () => number;
}

export const defaultRetryOptions: RetryOptions = {
  maxRetries: 3,
  maxRetryAfterMs: 60_000,
  baseDelayMs: 500,
  maxDelayMs: 15_000,
  random: Math.random,
};

export type RetryDecision = { retry: false } | { retry: true; delayMs: number };

/** Exponential backoff with "equal jitter": half fixed, half random, so parallel callers spread out. */
export function backoffDelay(retryNumber: number, options: RetryOptions): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (retryNumber - 1));
  return Math.round(ceiling / 2 + options.random() * (ceiling / 2));
}

/**
 * The retry rules, in one place:
 * - 429 and 503 wait for Retry-After when given (capped), else back off; a 503
 *   without Retry-After on a non-idempotent request is final;
 * - 500/502/504, 408, timeouts and network failures are retried only when the
 *   request is idempotent, or when it provably never left this machine;
 * - every other status is final (401 is handled by the refresh step instead).
 */
export function decideRetry(
  error: ToolstepsError,
  retryNumber: number,
  idempotent: boolean,
  options: RetryOptions,
): RetryDecision {
  const throttled = error.code === 'rate_limited' || error.status === 503;
  if (throttled) {
    const retryAfterMs = error.retryAfterMs;
    if (retryAfterMs !== undefined && retryAfterMs > options.maxRetryAfterMs) {
      throw new RateLimitError(
        `${error.message} The provider asks to wait ${Math.ceil(retryAfterMs / 1000)} s, longer than the ${Math.ceil(options.maxRetryAfterMs / 1000)} s cap; not waiting.`,
        { ...error.asInit(), retryable: true },
      );
    }
    // A 503 without Retry-After may come from a proxy that passed the request on:
    // for a write, it proves nothing about whether the provider acted.
    if (error.status === 503 && retryAfterMs === undefined && !idempotent) return { retry: false };
    return { retry: true, delayMs: retryAfterMs ?? backoffDelay(retryNumber, options) };
  }
  const transient =
    error.code === 'network_error' ||
    error.code === 'timeout' ||
    (error.code === 'provider_error' && error.status !== undefined && [500, 502, 504].includes(error.status));
  if (!transient) return { retry: false };
  const neverSent = error.sent === false;
  if (!idempotent && !neverSent) return { retry: false };
  return { retry: true, delayMs: backoffDelay(retryNumber, options) };
}
