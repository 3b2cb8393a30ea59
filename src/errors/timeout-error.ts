import type { ErrorInit } from './error-fields.js';
import { TransportError } from './transport-error.js';

/** A deadline passed: ours (the request's time limit) or the provider's (408). */
export class TimeoutError extends TransportError {
  override readonly name = 'TimeoutError' as const;
  constructor(message: string, init: ErrorInit & { transportCode?: string | undefined } = {}) {
    super('timeout', message, init);
  }
}
