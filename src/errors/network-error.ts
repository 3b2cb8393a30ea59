import type { ErrorInit } from './error-fields.js';
import { TransportError } from './transport-error.js';

/** The connection failed; `sent` says whether the request may have left, `transportCode` what broke. */
export class NetworkError extends TransportError {
  override readonly name = 'NetworkError' as const;
  constructor(message: string, init: ErrorInit & { transportCode?: string | undefined } = {}) {
    super('network_error', message, init);
  }
}
