import { isToolstepsError } from '../errors/index.js';

export type { Outcome } from '../errors/index.js';

/**
 * Failures after which a write may or may not have happened at the provider:
 * the connection broke or timed out once the request may have left, or a
 * gateway failed (500, 502, 504, or 503 without Retry-After) without saying
 * whether the backend acted.
 */
export function mayHaveLanded(error: unknown): boolean {
  if (!isToolstepsError(error)) return false;
  if (error.code === 'network_error' || error.code === 'timeout') return error.sent !== false;
  if (error.code !== 'provider_error') return false;
  return (
    [500, 502, 504].includes(error.status ?? 0) || (error.status === 503 && error.retryAfterMs === undefined)
  );
}

/**
 * What is known about a write that failed, in the shared vocabulary:
 * `unknown` when it may have reached the provider and acted (or we cannot
 * tell), `not_sent` when nothing left this machine, `refused` when the
 * provider answered without acting (any answer the transport did not flag
 * as ambiguous: 4xx, a 503 with Retry-After).
 */
export function writeOutcome(error: unknown): 'unknown' | 'not_sent' | 'refused' {
  if (!isToolstepsError(error) || error.outcome === 'unknown' || mayHaveLanded(error)) return 'unknown';
  if (error.sent === false) return 'not_sent';
  return error.status === undefined ? 'unknown' : 'refused';
}

/**
 * A failed write that is safe to send again because the provider provably
 * did not act on it: a 503 that does not count as ambiguous (the provider
 * refused it as overloaded), or a connection that never opened. Never after
 * 500, 502, 504, a reset or a timeout, which may follow the work being done.
 */
export function safeToResend(error: unknown): boolean {
  if (!isToolstepsError(error) || writeOutcome(error) === 'unknown') return false;
  if (error.code === 'provider_error' && error.status === 503) return true;
  return (error.code === 'network_error' || error.code === 'timeout') && error.sent === false;
}
