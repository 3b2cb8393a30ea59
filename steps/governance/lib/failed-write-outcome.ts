import { isToolstepsError } from '../../../src/errors.js';
import { mayHaveLanded, type Outcome } from '../../../src/outcome.js';

/**
 * What is known about a governance write that failed, in the shared
 * vocabulary of `src/outcome.ts`: `unknown` when it may have reached the
 * platform and acted (or we cannot tell), `not_sent` when nothing left this
 * machine, `refused` when the platform answered without acting.
 */
export function failedWriteOutcome(error: unknown): Outcome {
  if (mayHaveLanded(error) || !isToolstepsError(error)) return 'unknown';
  if (error.sent === false) return 'not_sent';
  // Any answer the transport did not flag as ambiguous (4xx, 503) means the platform did not act.
  return error.status === undefined ? 'unknown' : 'refused';
}
