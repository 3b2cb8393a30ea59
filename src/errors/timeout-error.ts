import type { ErrorInit } from './error-fields.js';
import { ToolstepsError } from './toolsteps-error.js';

/** A deadline passed: ours (the request's time limit) or the provider's (408). */
export class TimeoutError extends ToolstepsError {
  override readonly name = 'TimeoutError' as const;
  /** The low-level code (UND_ERR_HEADERS_TIMEOUT...), when there was one. */
  readonly transportCode: string | undefined;
  constructor(message: string, init: ErrorInit & { transportCode?: string | undefined } = {}) {
    const { transportCode, ...rest } = init;
    super('timeout', message, { retryable: true, ...rest });
    this.transportCode = transportCode;
  }
}
