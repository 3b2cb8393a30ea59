import type { ErrorInit } from './error-fields.js';
import { ToolstepsError } from './toolsteps-error.js';

/** The provider plan does not include this feature: never retryable. */
export class PlanError extends ToolstepsError {
  override readonly name = 'PlanError' as const;
  constructor(message: string, init: ErrorInit = {}) {
    super('plan_required', message, { ...init, retryable: false });
  }
}
