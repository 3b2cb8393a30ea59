import type { ErrorInit, FieldIssue } from './error-fields.js';
import { FieldIssuesError } from './field-issues-error.js';

/** The provider answered with something the step's output schema does not accept. */
export class OutputError extends FieldIssuesError {
  override readonly name = 'OutputError' as const;
  constructor(message: string, fields: readonly FieldIssue[] = [], init: ErrorInit = {}) {
    super('output_invalid', message, fields, { sent: true, ...init });
  }
}
