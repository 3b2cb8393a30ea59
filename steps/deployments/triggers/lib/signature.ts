import { createHmac } from 'node:crypto';
import {
  type EventTimeSource,
  type RawDelivery,
  type SignatureScheme,
  timingSafeEqualText,
} from '../../../../src/kit/index.js';

export const DEPLOYMENTS_SIGNATURE_HEADER = 'x-vercel-signature';

/**
 * The deployments provider's webhook signature: hex HMAC-SHA1 keyed by the
 * webhook's secret over the raw body (provider facts, "Webhooks"). Nothing
 * time-bound is signed apart from the body, so the replay window reads the
 * event's own time in it (`deploymentsEventTime`).
 */
export const deploymentsSignature: SignatureScheme = {
  name: 'hex HMAC-SHA1 of raw body',
  headers: [DEPLOYMENTS_SIGNATURE_HEADER],
  verify({ headers, body }: RawDelivery, secret: string): boolean {
    const signature = headers.get(DEPLOYMENTS_SIGNATURE_HEADER);
    if (!signature) return false;
    const expected = createHmac('sha1', secret).update(body).digest('hex');
    return timingSafeEqualText(expected, signature.trim().toLowerCase());
  },
};

/**
 * The signed body carries the event's creation time (`createdAt`, epoch ms;
 * provider facts, "Webhooks"), the same on every retry. A delivery of an
 * event older than a day is refused: a captured delivery can be replayed for
 * at most that long, and the intake keeps its dedupe record at least as long,
 * so within it a replay is a duplicate. The provider facts name no retry
 * schedule; a day outlasts a listener down overnight (docs/replay-window.md).
 */
export const deploymentsEventTime: EventTimeSource = { from: 'payload', maxAgeMs: 24 * 60 * 60_000 };
