import { isToolstepsError } from './errors.js';

export type { Outcome } from './errors.js';

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
 * True when this error came from a replay made after an earlier attempt of
 * the same request may have landed: a 404 on a replayed DELETE then means
 * our first attempt already did the work.
 */
export function isReplayAfterAmbiguousAttempt(error: unknown): boolean {
  return isToolstepsError(error) && error.replayed;
}
