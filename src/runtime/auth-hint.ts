import { AuthError } from '../errors/index.js';
import type { Integration } from '../model/define-integration.js';

/**
 * Runs a stage and gives an authentication error that says nothing about
 * what to do the integration's own advice (`authHint`), in the provider's
 * order of checks. A refused refresh, a refused token and a missing secret
 * all end there, whichever stage found them.
 */
export async function withAuthHint<T>(integration: Integration, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AuthError && !error.hint && integration.authHint) {
      throw error.withHint(integration.authHint);
    }
    throw error;
  }
}
