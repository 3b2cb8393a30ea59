import type { ErrorInit } from './error-fields.js';
import { ToolstepsError } from './toolsteps-error.js';

export type ProviderErrorCode = 'provider_error' | 'provider_rejected' | 'conflict' | 'invalid_state';

/** The provider refused or failed; `providerMessage` holds its own (redacted) words. */
export class ProviderError extends ToolstepsError {
  override readonly name = 'ProviderError' as const;
  constructor(message: string, init: ErrorInit & { code?: ProviderErrorCode } = {}) {
    const { code, ...rest } = init;
    super(code ?? 'provider_error', message, rest);
  }
}
