import type { ErrorInit } from './error-fields.js';
import { ToolstepsError } from './toolsteps-error.js';

export class NotFoundError extends ToolstepsError {
  override readonly name = 'NotFoundError' as const;
  constructor(message: string, init: ErrorInit = {}) {
    super('not_found', message, init);
  }
}
