import { InputError } from '../errors/index.js';

/**
 * How long an ended sign-in (connected, failed, or expired unfinished) is
 * still answered to the page that polls it; then its slot is free. The page
 * reads the outcome within seconds of the callback.
 */
export const ENDED_FLOW_KEPT_MS = 2 * 60_000;

/** How many sign-ins the server holds at once (`signIns` of the server's options). */
export interface SignInLimits {
  /** Every tenant's sign-ins held at once, pending or recently ended. Default 10,000. */
  maxFlows?: number | undefined;
  /**
   * One tenant's sign-ins held at once, pending or recently ended. Default 50.
   * An ended flow counts until its slot is free, so a tenant that starts
   * sign-ins and ends them at once is held to this many, not to the server's
   * room: it cannot fill the table and refuse every other tenant's connect.
   */
  maxPerTenant?: number | undefined;
}

export const DEFAULT_SIGN_IN_LIMITS = { maxFlows: 10_000, maxPerTenant: 50 } as const;

/**
 * Refuses a new sign-in past the limits: the tenant's own cap first,
 * counting every flow it holds (an ended one too, until its slot is free),
 * so no tenant reaches the server's cap alone and denies another's connect.
 */
export function refusePastSignInLimits(
  heldByTenant: number,
  heldByAll: number,
  limits: Required<SignInLimits>,
): void {
  if (heldByTenant >= limits.maxPerTenant) {
    throw new InputError(
      'Too many sign-ins started by this organization in the last minutes; finish one or wait a few minutes.',
      [{ path: 'integration', message: 'too many sign-ins' }],
    );
  }
  if (heldByAll >= limits.maxFlows) {
    throw new InputError('Too many sign-ins under way; finish or wait for one.', [
      { path: 'integration', message: 'too many sign-ins' },
    ]);
  }
}
