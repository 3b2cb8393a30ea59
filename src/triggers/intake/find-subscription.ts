import {
  HOOKS_PATH_PREFIX,
  parseHookPath,
  type Subscription,
  subscriptionIdPattern,
  subscriptionTenant,
} from '../../model/subscription.js';
import type { AnyTrigger } from '../define-trigger.js';
import type { IntakeRefusal } from './intake-refusal.js';
import type { ServedTenant, ServedTenants } from './intake-tenants.js';
import { unverified } from './refuse-unverified.js';

/** A subscription a delivery can be verified against: its trigger is served here and it holds a secret. */
export interface VerifiableSubscription {
  subscription: Subscription;
  trigger: AnyTrigger;
  /** The tenant it belongs to, with that tenant's stores. */
  served: ServedTenant;
}

/** Why nothing at the path can verify a delivery; `subscription` is the id when one is stored there. */
export interface Unverifiable {
  refusal: IntakeRefusal;
  subscription?: string;
}

/** The subscription a path names, looked up in the store of the tenant it names and no other. */
async function lookUp(path: string, tenants: ServedTenants) {
  const pathname = path.split('?')[0] ?? '';
  const rest = pathname.startsWith(HOOKS_PATH_PREFIX) ? pathname.slice(HOOKS_PATH_PREFIX.length) : '';
  const hook = parseHookPath(rest);
  const served = hook && subscriptionIdPattern.test(hook.id) ? await tenants.get(hook.tenant) : undefined;
  const store = served?.subscriptions;
  const subscription =
    store && hook ? await (store.getWithoutDeliveryTime?.(hook.id) ?? store.get(hook.id)) : undefined;
  // A record whose own tenant is not the store's (planted, or copied between tenants) is no one's here.
  if (!served || !subscription || subscriptionTenant(subscription) !== served.tenant) return undefined;
  return { served, subscription };
}

/**
 * Stage 1, subscription by URL path: `/hooks/<subscription-id>` (the
 * default tenant's) or `/hooks/<tenant>/<subscription-id>` (a query string
 * is ignored), looked up in that tenant's store before a byte of the body
 * is read. A path that is no id, a tenant not served here, an id nobody
 * stored in that tenant (another tenant's included), a trigger not served
 * here and a subscription without a secret all come back Unverifiable,
 * with a refusal that tells the sender no more than a bad signature does.
 */
export async function findSubscription(
  path: string,
  tenants: ServedTenants,
  triggers: { trigger(id: string): AnyTrigger | undefined },
): Promise<VerifiableSubscription | Unverifiable> {
  const found = await lookUp(path, tenants);
  if (!found) {
    return { refusal: unverified('unknown_subscription', 'No subscription at this path.') };
  }
  const { subscription, served } = found;
  const trigger = triggers.trigger(subscription.trigger);
  if (!trigger) {
    const message = `Trigger ${subscription.trigger} is not available here.`;
    return { refusal: unverified('trigger_unavailable', message), subscription: subscription.id };
  }
  if (!subscription.secret) {
    const message = 'This subscription has no signing secret, so every delivery is refused.';
    return { refusal: unverified('no_signing_secret', message), subscription: subscription.id };
  }
  return { subscription, trigger, served };
}
