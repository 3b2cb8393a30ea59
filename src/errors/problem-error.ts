import type { ErrorCode, ErrorInit } from './error-fields.js';
import { ToolstepsError } from './toolsteps-error.js';

/**
 * A refusal for one named `problem` (kept in `context.problem`), found before
 * anything is sent: a key that cannot be used, a record that failed its
 * check. Never retryable as is, since the same key or record fails the same
 * way; the message never holds key material or a field's value.
 */
export abstract class ProblemError<Problem extends string> extends ToolstepsError {
  constructor(code: ErrorCode, message: string, problem: Problem, init: ErrorInit = {}) {
    super(code, message, {
      ...init,
      retryable: false,
      sent: false,
      context: { ...init.context, problem },
    });
  }

  get problem(): Problem {
    return this.context.problem as Problem;
  }
}
