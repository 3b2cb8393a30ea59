import type { Subscription } from '../../model/subscription.js';
import type { AnyTrigger, RawDelivery } from '../define-trigger.js';
import { unverified } from './refuse-unverified.js';

/**
 * Stage 3, signature over the raw bytes, by the trigger's own scheme (which
 * compares with `crypto.timingSafeEqual`). A subscription without a secret
 * refuses everything: an unsigned delivery is never accepted. The sender
 * is told no more than for an unknown path (see `unverified`).
 */
export function verifySignature(
  trigger: AnyTrigger,
  subscription: Subscription,
  delivery: RawDelivery,
): void {
  if (!subscription.secret) {
    throw unverified(
      'no_signing_secret',
      'This subscription has no signing secret, so no delivery can be verified; every delivery is refused.',
    );
  }
  if (!trigger.verify.verify(delivery, subscription.secret)) {
    throw unverified(
      'bad_signature',
      `The signature is missing or does not match (${trigger.verify.headers.join(', ')}).`,
    );
  }
}
