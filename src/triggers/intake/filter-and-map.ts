import type { Subscription } from '../../model/subscription.js';
import type { DedupeStore } from '../../store/dedupe-store.js';
import type { AnyTrigger } from '../define-trigger.js';
import { payloadAtMajor } from '../trigger-at-major.js';
import { filterEvent } from './filter-event.js';
import type { ClaimedEvent } from './hand-over.js';
import { mapEventVariables } from './map-event-variables.js';

/**
 * Filter and map under the claim: either throwing releases it, since nothing
 * was started. The filter reads the payload as validated; a subscription on
 * an earlier major maps, and is handed, that major's shape of it.
 */
export async function filterAndMap(
  dedupe: DedupeStore,
  claimed: ClaimedEvent,
  trigger: AnyTrigger,
  subscription: Subscription,
  payload: unknown,
): Promise<{ skipped: string | undefined; variables: Record<string, unknown>; delivered: unknown }> {
  try {
    const skipped = filterEvent(trigger, subscription, payload);
    if (skipped !== undefined) return { skipped, variables: {}, delivered: payload };
    const delivered = payloadAtMajor(trigger, payload);
    return { skipped, variables: mapEventVariables(trigger, subscription, delivered), delivered };
  } catch (error) {
    await dedupe.release(claimed.key, claimed.token);
    throw error;
  }
}
