import { describe, expect, it } from 'vitest';
import { checkTimestampWindow } from '../../../src/triggers/intake/check-timestamp-window.js';
import { deploymentsSignature } from '../../../steps/deployments/triggers/lib/signature.js';
import { ticketingSignature } from '../../../steps/ticketing/triggers/lib/signature.js';

const now = Date.UTC(2026, 0, 1, 12, 0, 0);
const stamped = (iso: string) => new Headers({ 'x-zendesk-webhook-signature-timestamp': iso });

describe('stage 4: timestamp window (ticketing: +/- 5 minutes)', () => {
  it('accepts a signed time up to 5 minutes either side of now', () => {
    expect(() =>
      checkTimestampWindow(ticketingSignature, stamped('2026-01-01T12:05:00Z'), now),
    ).not.toThrow();
    expect(() =>
      checkTimestampWindow(ticketingSignature, stamped('2026-01-01T11:55:00Z'), now),
    ).not.toThrow();
  });

  it('answers 401 just outside the window, either way', () => {
    for (const iso of ['2026-01-01T12:05:01Z', '2026-01-01T11:54:59Z', '2025-12-31T12:00:00Z']) {
      expect(() => checkTimestampWindow(ticketingSignature, stamped(iso), now), iso).toThrowError(
        expect.objectContaining({ status: 401, code: 'timestamp_outside_window' }),
      );
    }
  });

  it('answers 401 when the signed time is missing or not ISO-8601', () => {
    expect(() => checkTimestampWindow(ticketingSignature, new Headers(), now)).toThrowError(
      expect.objectContaining({ status: 401 }),
    );
    expect(() => checkTimestampWindow(ticketingSignature, stamped(String(now / 1000)), now)).toThrowError(
      expect.objectContaining({ status: 401 }),
    );
  });

  it('does nothing for a provider that signs no time', () => {
    expect(() => checkTimestampWindow(deploymentsSignature, new Headers(), now)).not.toThrow();
  });
});
