import type { ErrorInit } from './error-fields.js';
import { ToolstepsError } from './toolsteps-error.js';

/** The connection failed; `sent` says whether the request may have left, `transportCode` what broke. */
export class NetworkError extends ToolstepsError {
  override readonly name = 'NetworkError' as const;
  /** The low-level code (ECONNRESET, ENOTFOUND...), when there was one. */
  readonly transportCode: string | undefined;
  constructor(message: string, init: ErrorInit & { transportCode?: string | undefined } = {}) {
    const { transportCode, ...rest } = init;
    super('network_error', message, { retryable: true, ...rest });
    this.transportCode = transportCode;
  }
}
