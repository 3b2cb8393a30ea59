import type { ErrorInit, FieldIssue } from './error-fields.js';
import { FieldIssuesError } from './field-issues-error.js';

/** Bad input to a step, connection or mapping. Raised before any request is sent. */
export class InputError extends FieldIssuesError {
  override readonly name = 'InputError' as const;
  constructor(message: string, fields: readonly FieldIssue[] = [], init: ErrorInit = {}) {
    super('input_invalid', message, fields, { sent: false, ...init });
  }
}
