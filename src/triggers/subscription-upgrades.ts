import { type MovedPath, type UnmatchedPath, upgradeMapping } from '../mapping/mapping-upgrade.js';
import type { Subscription } from '../model/subscription.js';
import { latestMajor, parseReference, referenceOf } from '../step/step-version.js';
import type { SubscriptionStore } from '../store/subscription-store.js';
import type { AnyTrigger } from './define-trigger.js';

/**
 * What `toolsteps upgrade` does with one subscription:
 * - `pin`: made with a bare trigger id (before versions, or by choice), it
 *   follows the latest major; pinning stores `id@<current major>` so a later
 *   major cannot move it;
 * - `current`: it names the trigger's current major, nothing to do;
 * - `upgrade`: it names an earlier major the trigger serves by migration:
 *   moving it stores the current major and its mapping rewritten through
 *   the migration's path map (`mapping`, `moved`), and lists the variables
 *   with no counterpart (`unmatched`);
 * - `not_served`: it names a major the trigger no longer serves, and no
 *   payload migration exists to move its mapping: make it again;
 * - `unknown_trigger`: its trigger is not in this catalogue.
 */
export interface SubscriptionUpgrade {
  subscription: string;
  trigger: string;
  action: 'pin' | 'current' | 'upgrade' | 'not_served' | 'unknown_trigger';
  /** The reference `pin` and `upgrade` store. */
  to?: string;
  /** On `upgrade`: the mapping stored with `to`, over the current major's default variables. */
  mapping?: Record<string, string>;
  /** On `upgrade`: each variable whose path moved. */
  moved?: MovedPath[];
  /** On `upgrade`: each variable with no counterpart in the current major, left out of `mapping`. */
  unmatched?: UnmatchedPath[];
  /** Whether it was stored: false on a dry run, and for an upgrade held back by its unmatched variables. */
  applied?: boolean;
}

/** Where trigger ids resolve: the registry. */
interface TriggerLookup {
  trigger(id: string): AnyTrigger | undefined;
}

function planOne(subscription: Subscription, triggers: TriggerLookup): SubscriptionUpgrade {
  const named = parseReference(subscription.trigger);
  const trigger = named && triggers.trigger(named.id);
  const base = { subscription: subscription.id, trigger: subscription.trigger };
  if (!named || !trigger) return { ...base, action: 'unknown_trigger' };
  const current = latestMajor(trigger);
  const to = referenceOf(trigger.id, current);
  if (named.major === undefined) return { ...base, action: 'pin', to };
  if (named.major === current) return { ...base, action: 'current' };
  const earlier = trigger.earlier?.find((candidate) => latestMajor(candidate) === named.major);
  if (!earlier) return { ...base, action: 'not_served' };
  const upgraded = upgradeMapping({
    saved: subscription.mapping,
    earlierDefaults: earlier.variables,
    latestDefaults: trigger.variables,
    paths: earlier.paths,
  });
  return { ...base, action: 'upgrade', to, ...upgraded };
}

/** The upgrade of each subscription, in the order given; pure, so a dry run and `--apply` plan alike. */
export function planSubscriptionUpgrades(
  subscriptions: readonly Subscription[],
  triggers: TriggerLookup,
): SubscriptionUpgrade[] {
  return subscriptions.map((subscription) => planOne(subscription, triggers));
}

/** What `upgradeSubscriptions` does besides planning. */
export interface UpgradeSubscriptionsOptions {
  /** Store the plan (default false: a dry run). */
  apply?: boolean;
  /**
   * Also move subscriptions with unmatched variables, without those
   * variables. By default they are held back: they keep running on their
   * served major until their mapping is made again on the current one.
   */
  dropUnmatched?: boolean;
}

/**
 * The tenant's subscriptions against the catalogue's majors: the plan of
 * each (`planSubscriptionUpgrades`), and with `apply` each pin and upgrade
 * stored (its trigger reference, and for an upgrade its rewritten mapping).
 * `applied` says which were.
 */
export async function upgradeSubscriptions(
  store: SubscriptionStore,
  triggers: TriggerLookup,
  options: UpgradeSubscriptionsOptions = {},
): Promise<SubscriptionUpgrade[]> {
  const stored = await store.list();
  const plan = planSubscriptionUpgrades(stored, triggers);
  for (const [at, upgrade] of plan.entries()) {
    const subscription = stored[at]!;
    const moves = upgrade.action === 'pin' || upgrade.action === 'upgrade';
    const held = upgrade.action === 'upgrade' && Boolean(upgrade.unmatched?.length) && !options.dropUnmatched;
    upgrade.applied = Boolean(options.apply && moves && !held && upgrade.to);
    if (!upgrade.applied) continue;
    await store.put({
      ...subscription,
      trigger: upgrade.to!,
      ...(upgrade.mapping ? { mapping: upgrade.mapping } : {}),
    });
  }
  return plan;
}
