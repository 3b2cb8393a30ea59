import { AuthError } from '../errors/index.js';
import type { Integration } from '../model/define-integration.js';

/**
 * What a stage threw, with the integration's own advice (`authHint`) given
 * to an authentication error that says nothing about what to do, in the
 * provider's order of checks. A refused refresh, a refused token and a
 * missing secret all end there, whichever stage found them. A plain call in
 * the stage's `catch`, not a wrapper: the hot path makes no closure for it.
 */
export function withAuthHint(integration: Integration, error: unknown): unknown {
  if (error instanceof AuthError && !error.hint && integration.authHint) {
    return error.withHint(integration.authHint);
  }
  return error;
}
