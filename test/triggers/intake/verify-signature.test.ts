import { describe, expect, it } from 'vitest';
import { verifySignature } from '../../../src/triggers/intake/verify-signature.js';
import ticketStatusChanged from '../../../steps/ticketing/triggers/ticket-status-changed.js';
import { signTicketing, subscriptionFor, ticketStatusEvent } from '../trigger-fixtures.js';

const body = JSON.stringify(ticketStatusEvent());
const delivery = (headers: Record<string, string>, text = body) => ({
  headers: new Headers(headers),
  body: new TextEncoder().encode(text),
});
const subscription = subscriptionFor('ticketing.ticket_status_changed', { id: 'sub_0123456789abcdef' });

describe('stage 3: signature over the raw bytes', () => {
  it('passes a delivery signed with the subscription secret', () => {
    expect(() =>
      verifySignature(
        ticketStatusChanged,
        subscription,
        delivery(signTicketing(body, '2026-01-01T00:00:00Z')),
      ),
    ).not.toThrow();
  });

  it('answers 401 to a bad or missing signature', () => {
    const signed = signTicketing(body, '2026-01-01T00:00:00Z', 'another-secret');
    expect(() => verifySignature(ticketStatusChanged, subscription, delivery(signed))).toThrowError(
      expect.objectContaining({ status: 401, code: 'bad_signature' }),
    );
    expect(() => verifySignature(ticketStatusChanged, subscription, delivery({}))).toThrowError(
      expect.objectContaining({ status: 401, code: 'bad_signature' }),
    );
  });

  it('refuses every delivery to a subscription without a secret, even an unsigned one', () => {
    const { secret: _none, ...unsigned } = subscription;
    expect(() => verifySignature(ticketStatusChanged, unsigned, delivery({}))).toThrowError(
      expect.objectContaining({ status: 401, code: 'no_signing_secret' }),
    );
    expect(() =>
      verifySignature(
        ticketStatusChanged,
        unsigned,
        delivery(signTicketing(body, '2026-01-01T00:00:00Z', '')),
      ),
    ).toThrowError(expect.objectContaining({ code: 'no_signing_secret' }));
  });
});
