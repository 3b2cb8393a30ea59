import { type FieldIssue, OutputError } from '../errors/index.js';
import type { AnyStep } from '../step/define-step.js';

/**
 * The provider answered, and we could not read the answer. A write whose
 * answer could not be read still happened: say so, so nobody sends it again.
 */
export function unreadableAnswer(
  step: AnyStep,
  message: string,
  issues: FieldIssue[],
  retryable: boolean,
): OutputError {
  if (step.access === 'read') return new OutputError(message, issues, { retryable });
  return new OutputError(message, issues, {
    retryable: false,
    outcome: 'already_done',
    hint: 'The provider accepted the request and it took effect, but its answer could not be read. Do not send it again; read the resource instead.',
  });
}
