import type { ErrorInit } from './error-fields.js';
import { ToolstepsError } from './toolsteps-error.js';

/**
 * The codes a ProviderError carries: the provider failed (`provider_error`),
 * refused the request as invalid (`provider_rejected`), answered that it
 * conflicts with the account's state (`conflict`), or that the target is in
 * a state that forbids it (`invalid_state`).
 */
export type ProviderErrorCode = 'provider_error' | 'provider_rejected' | 'conflict' | 'invalid_state';

/** The provider refused or failed; `providerMessage` holds its own (redacted) words. */
export class ProviderError extends ToolstepsError {
  override readonly name = 'ProviderError' as const;
  constructor(message: string, init: ErrorInit & { code?: ProviderErrorCode } = {}) {
    const { code, ...rest } = init;
    super(code ?? 'provider_error', message, rest);
  }
}
