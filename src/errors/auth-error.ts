import type { ErrorInit } from './error-fields.js';
import { ToolstepsError } from './toolsteps-error.js';

/** Credentials missing or refused; `reauthorization_required` when only a new connect can help. */
export class AuthError extends ToolstepsError {
  override readonly name = 'AuthError' as const;
  constructor(message: string, init: ErrorInit & { reauthorize?: boolean } = {}) {
    const { reauthorize, ...rest } = init;
    super(reauthorize ? 'reauthorization_required' : 'auth_failed', message, rest);
  }
}
