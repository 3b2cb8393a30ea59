import { createHmac } from 'node:crypto';
import { type RawDelivery, type SignatureScheme, timingSafeEqualText } from 'toolsteps/kit';

export const SIGNATURE_HEADER = 'x-notes-signature';

/** `t=<unix seconds>,v1=<hex>` as the provider writes the header; anything else reads as unsigned. */
const HEADER_FORM = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/;

function readHeader(headers: Headers): { seconds: string; signature: string } | undefined {
  const match = HEADER_FORM.exec(headers.get(SIGNATURE_HEADER)?.trim() ?? '');
  return match ? { seconds: match[1] as string, signature: match[2] as string } : undefined;
}

/**
 * Acme Notes signs each delivery with the webhook's secret: hex HMAC-SHA256
 * of `<t>.<raw body>`, sent as `x-notes-signature: t=<t>,v1=<hex>`. The time
 * is signed, so a copy replayed later fails the intake's replay window even
 * with a right signature.
 */
export const notesSignature: SignatureScheme = {
  name: 'hex HMAC-SHA256 of "<t>.<raw body>"',
  headers: [SIGNATURE_HEADER],
  verify({ headers, body }: RawDelivery, secret: string): boolean {
    const signed = readHeader(headers);
    if (!signed) return false;
    const expected = createHmac('sha256', secret).update(`${signed.seconds}.`).update(body).digest('hex');
    return timingSafeEqualText(expected, signed.signature);
  },
  signedTime(headers: Headers): number | undefined {
    const signed = readHeader(headers);
    return signed ? Number(signed.seconds) * 1000 : undefined;
  },
  toleranceMs: 5 * 60_000,
};
