import type { ErrorInit } from './error-fields.js';
import { ToolstepsError } from './toolsteps-error.js';

/**
 * The provider's answer was larger than this client accepts: reading stopped
 * at the cap. Not retryable: the same request would bring the same answer.
 */
export class ResponseTooLargeError extends ToolstepsError {
  override readonly name = 'ResponseTooLargeError' as const;
  /** The cap the answer passed, in bytes. */
  readonly limitBytes: number;
  constructor(message: string, init: ErrorInit & { limitBytes: number }) {
    const { limitBytes, ...rest } = init;
    super('response_too_large', message, { sent: true, ...rest, retryable: false });
    this.limitBytes = limitBytes;
  }
}
