import type { ErrorInit } from './error-fields.js';
import { ToolstepsError } from './toolsteps-error.js';

export class PermissionError extends ToolstepsError {
  override readonly name = 'PermissionError' as const;
  constructor(message: string, init: ErrorInit = {}) {
    super('permission_denied', message, init);
  }
}
