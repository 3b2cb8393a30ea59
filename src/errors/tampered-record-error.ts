import type { ErrorInit } from './error-fields.js';
import { ProblemError } from './problem-error.js';

/**
 * Why a stored record is refused:
 * - `altered`: a field that decides where a secret goes or what a record may
 *   do (a base URL, a subscription's target or constraints) is not what was
 *   sealed with its secrets, or the record was moved to another id or kind;
 * - `rolled_back`: an older copy of a record this process has seen newer;
 * - `unsealed_format`: written before public fields were sealed too, so
 *   nothing vouches for them until `toolsteps connections rekey` seals them.
 */
export type TamperedRecordProblem = 'altered' | 'rolled_back' | 'unsealed_format';

/**
 * A stored record failed its integrity check, so it is not used: nothing is
 * sent with its secrets. Never retryable as is; the message names the record
 * and what failed, never a field's value.
 */
export class TamperedRecordError extends ProblemError<TamperedRecordProblem> {
  override readonly name = 'TamperedRecordError' as const;
  constructor(message: string, problem: TamperedRecordProblem, init: ErrorInit = {}) {
    super('record_tampered', message, problem, init);
  }
}
