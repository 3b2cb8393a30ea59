import type { Subscription } from '../model/subscription.js';
import { latestMajor, parseReference, referenceOf } from '../step/step-version.js';
import type { AnyTrigger } from './define-trigger.js';

/**
 * What `toolsteps upgrade` does with one subscription:
 * - `pin`: made with a bare trigger id (before versions, or by choice), it
 *   follows the latest major; pinning stores `id@<current major>` so a later
 *   major cannot move it;
 * - `current`: it names the trigger's current major, nothing to do;
 * - `not_served`: it names a major the trigger no longer serves, and no
 *   payload migration exists to move its mapping: make it again;
 * - `unknown_trigger`: its trigger is not in this catalogue.
 */
export interface SubscriptionUpgrade {
  subscription: string;
  trigger: string;
  action: 'pin' | 'current' | 'not_served' | 'unknown_trigger';
  /** The reference `pin` stores. */
  to?: string;
}

/** The upgrade of each subscription, in the order given; pure, so a dry run and `--apply` plan alike. */
export function planSubscriptionUpgrades(
  subscriptions: readonly Subscription[],
  triggers: { trigger(id: string): AnyTrigger | undefined },
): SubscriptionUpgrade[] {
  return subscriptions.map((subscription) => {
    const named = parseReference(subscription.trigger);
    const trigger = named && triggers.trigger(named.id);
    const base = { subscription: subscription.id, trigger: subscription.trigger };
    if (!named || !trigger) return { ...base, action: 'unknown_trigger' };
    const current = latestMajor(trigger);
    if (named.major === undefined) return { ...base, action: 'pin', to: referenceOf(trigger.id, current) };
    return { ...base, action: named.major === current ? 'current' : 'not_served' };
  });
}
