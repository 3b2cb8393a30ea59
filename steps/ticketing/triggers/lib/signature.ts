import { createHmac } from 'node:crypto';
import {
  type EventTimeSource,
  type RawDelivery,
  type SignatureScheme,
  timingSafeEqualText,
} from '../../../../src/kit/index.js';

export const TICKETING_SIGNATURE_HEADER = 'x-zendesk-webhook-signature';
export const TICKETING_TIMESTAMP_HEADER = 'x-zendesk-webhook-signature-timestamp';

/** The provider signs an ISO-8601 time; anything looser (a bare number, a date alone) is refused. */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * The ticketing provider's webhook signature: base64 HMAC-SHA256 keyed by
 * the webhook's signing secret over the timestamp header followed by the
 * raw body, with no separator (provider facts, "Webhooks"). The timestamp is
 * signed, so a replay outside the window fails even with a valid signature.
 */
export const ticketingSignature: SignatureScheme = {
  name: 'base64 HMAC-SHA256 of timestamp + raw body',
  headers: [TICKETING_SIGNATURE_HEADER, TICKETING_TIMESTAMP_HEADER],
  verify({ headers, body }: RawDelivery, secret: string): boolean {
    const signature = headers.get(TICKETING_SIGNATURE_HEADER);
    const timestamp = headers.get(TICKETING_TIMESTAMP_HEADER);
    if (!signature || !timestamp) return false;
    const expected = createHmac('sha256', secret).update(timestamp, 'utf8').update(body).digest('base64');
    return timingSafeEqualText(expected, signature.trim());
  },
  signedTime(headers: Headers): number | undefined {
    const timestamp = headers.get(TICKETING_TIMESTAMP_HEADER)?.trim();
    if (!timestamp || !ISO_8601.test(timestamp)) return undefined;
    const time = Date.parse(timestamp);
    return Number.isFinite(time) ? time : undefined;
  },
  toleranceMs: 5 * 60_000,
};

/** The replay window reads the signed timestamp: it is new on every attempt, so 5 minutes either way. */
export const ticketingEventTime: EventTimeSource = { from: 'signature' };
