import type { ErrorInit } from './error-fields.js';
import { ToolstepsError } from './toolsteps-error.js';

/** The provider said "too many"; `retryAfterMs` is how long it asked us to wait, when it said. */
export class RateLimitError extends ToolstepsError {
  override readonly name = 'RateLimitError' as const;
  constructor(message: string, init: ErrorInit = {}) {
    super('rate_limited', message, { retryable: true, ...init });
  }
}
