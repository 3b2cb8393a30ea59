import { isToolstepsError, type ToolstepsError } from './errors.js';

/**
 * What is known about a write when a call failed, in `error.details.outcome`.
 * One vocabulary for every integration, so an agent can act on it:
 * - `unknown`: the request may have reached the provider and acted; check
 *   before sending it again (the error is then not `retryable`);
 * - `not_sent`: nothing left this machine; safe to send again;
 * - `refused`: the provider answered and did not act;
 * - `not_created`: checked after an ambiguous failure: nothing was created;
 * - `already_done`: a replay found the work already done (by our earlier attempt).
 */
export type Outcome = 'unknown' | 'not_sent' | 'refused' | 'not_created' | 'already_done';

/**
 * Failures after which a write may or may not have happened at the provider:
 * the connection broke or timed out once the request may have left, or a
 * gateway failed (500, 502, 504, or 503 without Retry-After) without saying
 * whether the backend acted.
 */
export function mayHaveLanded(error: unknown): boolean {
  if (!isToolstepsError(error)) return false;
  if (error.code === 'network_error' || error.code === 'timeout') return error.details.sent !== false;
  if (error.code !== 'provider_error') return false;
  return (
    [500, 502, 504].includes(error.status ?? 0) ||
    (error.status === 503 && error.details.retryAfterMs === undefined)
  );
}

const UNKNOWN_HINT =
  'The request may have reached the provider and taken effect. Check (read or search) before sending it again, or it may be done twice.';

/**
 * Marks an error after which a non-idempotent write may have happened: not
 * retryable (an agent's retry could do the work twice), outcome `unknown`.
 */
export function markOutcomeUnknown(error: ToolstepsError, hint = UNKNOWN_HINT): ToolstepsError {
  error.retryable = false;
  error.details.outcome ??= 'unknown';
  error.details.hint ??= hint;
  return error;
}

/**
 * True when this error came from a replay made after an earlier attempt of
 * the same request may have landed: a 404 on a replayed DELETE then means
 * our first attempt already did the work.
 */
export function isReplayAfterAmbiguousAttempt(error: unknown): boolean {
  return isToolstepsError(error) && error.details.afterAmbiguousAttempt === true;
}
