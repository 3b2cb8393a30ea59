import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deploymentsSignature } from '../../steps/deployments/triggers/lib/signature.js';
import { ticketingSignature } from '../../steps/ticketing/triggers/lib/signature.js';

const encode = (text: string) => new TextEncoder().encode(text);

describe('ticketing signature: base64 HMAC-SHA256 of timestamp + raw body', () => {
  const secret = 'dGhpcyBpcyBhIHNlY3JldA==';
  const timestamp = '2026-01-01T00:00:00Z';
  const body = '{"type":"zen:event-type:ticket.created","id":"e1"}';
  // Computed here, independently of the scheme: HMAC over the timestamp then the body, no separator.
  const vector = createHmac('sha256', secret).update(`${timestamp}${body}`).digest('base64');
  const headers = (signature: string | undefined, stamp: string | null = timestamp) => {
    const result = new Headers();
    if (signature !== undefined) result.set('X-Zendesk-Webhook-Signature', signature);
    if (stamp !== null) result.set('X-Zendesk-Webhook-Signature-Timestamp', stamp);
    return result;
  };

  it('accepts the known vector', () => {
    expect(ticketingSignature.verify({ headers: headers(vector), body: encode(body) }, secret)).toBe(true);
  });

  it('refuses one changed body byte, a changed timestamp, a dropped header and another secret', () => {
    const changed = body.replace('e1', 'e2');
    expect(ticketingSignature.verify({ headers: headers(vector), body: encode(changed) }, secret)).toBe(
      false,
    );
    expect(
      ticketingSignature.verify(
        { headers: headers(vector, '2026-01-01T00:00:01Z'), body: encode(body) },
        secret,
      ),
    ).toBe(false);
    expect(ticketingSignature.verify({ headers: headers(undefined), body: encode(body) }, secret)).toBe(
      false,
    );
    expect(ticketingSignature.verify({ headers: headers(vector, null), body: encode(body) }, secret)).toBe(
      false,
    );
    expect(ticketingSignature.verify({ headers: headers(vector), body: encode(body) }, `${secret}x`)).toBe(
      false,
    );
  });

  it('refuses a hex digest of the right HMAC: the encoding is part of the rule', () => {
    const hex = createHmac('sha256', secret).update(`${timestamp}${body}`).digest('hex');
    expect(ticketingSignature.verify({ headers: headers(hex), body: encode(body) }, secret)).toBe(false);
  });

  it('reads the signed ISO-8601 timestamp and nothing looser', () => {
    expect(ticketingSignature.signedTime?.(headers(vector))).toBe(Date.UTC(2026, 0, 1));
    expect(ticketingSignature.signedTime?.(headers(vector, '1767225600'))).toBeUndefined();
    expect(ticketingSignature.signedTime?.(headers(vector, null))).toBeUndefined();
    expect(ticketingSignature.toleranceMs).toBe(5 * 60_000);
  });

  it('verifies an empty body', () => {
    const empty = createHmac('sha256', secret).update(timestamp).digest('base64');
    expect(ticketingSignature.verify({ headers: headers(empty), body: new Uint8Array() }, secret)).toBe(true);
  });
});

describe('deployments signature: hex HMAC-SHA1 of the raw body', () => {
  const secret = 'whsec_deployments';
  const body = '{"type":"deployment.created","id":"evt_1"}';
  const vector = createHmac('sha1', secret).update(body).digest('hex');
  const headers = (signature?: string) =>
    new Headers(signature === undefined ? {} : { 'x-vercel-signature': signature });

  it('accepts the known vector, in either case', () => {
    expect(deploymentsSignature.verify({ headers: headers(vector), body: encode(body) }, secret)).toBe(true);
    expect(
      deploymentsSignature.verify({ headers: headers(vector.toUpperCase()), body: encode(body) }, secret),
    ).toBe(true);
  });

  it('refuses one changed byte, a dropped header, a SHA-256 digest and another secret', () => {
    expect(
      deploymentsSignature.verify(
        { headers: headers(vector), body: encode(body.replace('evt_1', 'evt_2')) },
        secret,
      ),
    ).toBe(false);
    expect(deploymentsSignature.verify({ headers: headers(), body: encode(body) }, secret)).toBe(false);
    const sha256 = createHmac('sha256', secret).update(body).digest('hex');
    expect(deploymentsSignature.verify({ headers: headers(sha256), body: encode(body) }, secret)).toBe(false);
    expect(deploymentsSignature.verify({ headers: headers(vector), body: encode(body) }, 'other')).toBe(
      false,
    );
  });

  it('signs no timestamp: the dedupe on the event id is the replay defence', () => {
    expect(deploymentsSignature.signedTime).toBeUndefined();
  });
});
