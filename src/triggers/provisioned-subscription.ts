import type { Subscription } from '../model/subscription.js';
import type { ProvisionResult } from './define-trigger.js';

/**
 * The subscription with what provisioning made at the provider: its ids, and
 * the signing secret when one was given (absent, the stored one stands).
 * Both what a trigger's `provision` returns and each `context.record(...)`
 * go through here, so a trigger that only returns its webhook id and secret
 * (as `ProvisionResult` says they are kept) is stored exactly like one that
 * records them: never `ready` without a secret, refusing every delivery,
 * with a webhook `remove` does not know about.
 */
export function withProvisioned(current: Subscription, made: ProvisionResult): Subscription {
  return { ...current, provider: { ...made.provider }, secret: made.secret ?? current.secret };
}
