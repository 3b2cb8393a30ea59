import { createHmac } from 'node:crypto';
import { type RawDelivery, type SignatureScheme, timingSafeEqualText } from '../../../../src/kit/index.js';

export const DEPLOYMENTS_SIGNATURE_HEADER = 'x-vercel-signature';

/**
 * The deployments provider's webhook signature: hex HMAC-SHA1 keyed by the
 * webhook's secret over the raw body (provider facts, "Webhooks"). Nothing
 * time-bound is signed, so the dedupe on the event id is the replay defence.
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
