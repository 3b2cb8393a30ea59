import type { ErrorInit } from './error-fields.js';
import { ToolstepsError } from './toolsteps-error.js';

/** Which of a tenant's fair-share limits was reached. */
export type TenantLimitName = 'calls_per_minute' | 'credits_per_day';

/**
 * A tenant reached one of its fair-share limits (calls per minute, credits
 * per day), checked before anything is sent: retryable, with `retryAfterMs`
 * until the window that refused it ends (the next minute, the next UTC day).
 * `context.limit` names the limit, `context.allowed` its value.
 */
export class TenantLimitError extends ToolstepsError {
  override readonly name = 'TenantLimitError' as const;
  constructor(message: string, init: ErrorInit & { retryAfterMs: number }) {
    super('tenant_limit_exceeded', message, { ...init, retryable: true, sent: false, outcome: 'not_sent' });
  }
}
