import type { ErrorInit } from './error-fields.js';
import { ToolstepsError } from './toolsteps-error.js';

/** The caller's signal stopped the work. */
export class AbortedError extends ToolstepsError {
  override readonly name = 'AbortedError' as const;
  constructor(message: string, init: ErrorInit = {}) {
    super('aborted', message, init);
  }
}
