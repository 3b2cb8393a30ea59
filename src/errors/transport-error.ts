import type { ErrorCode, ErrorInit } from './error-fields.js';
import { ToolstepsError } from './toolsteps-error.js';

/** A request the transport could not finish (the connection broke, a deadline passed): retryable by default. */
export abstract class TransportError extends ToolstepsError {
  /** The low-level code (ECONNRESET, ENOTFOUND, UND_ERR_HEADERS_TIMEOUT...), when there was one. */
  readonly transportCode: string | undefined;
  constructor(
    code: ErrorCode,
    message: string,
    init: ErrorInit & { transportCode?: string | undefined } = {},
  ) {
    const { transportCode, ...rest } = init;
    super(code, message, { retryable: true, ...rest });
    this.transportCode = transportCode;
  }
}
