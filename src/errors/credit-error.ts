import type { ErrorInit } from './error-fields.js';
import { ToolstepsError } from './toolsteps-error.js';

/** Out of credits at the provider, or over the invocation's own budget: never retryable. */
export class CreditError extends ToolstepsError {
  override readonly name = 'CreditError' as const;
  constructor(
    message: string,
    init: ErrorInit & { code?: 'credits_exhausted' | 'credit_budget_exceeded' } = {},
  ) {
    const { code, ...rest } = init;
    super(code ?? 'credits_exhausted', message, { ...rest, retryable: false });
  }
}
