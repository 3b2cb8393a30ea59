import { describe, expect, it } from 'vitest';
import { checkTimestampWindow, doneTtlFor } from '../../../src/triggers/intake/check-timestamp-window.js';
import {
  deploymentsEventTime,
  deploymentsSignature,
} from '../../../steps/deployments/triggers/lib/signature.js';
import { ticketingEventTime, ticketingSignature } from '../../../steps/ticketing/triggers/lib/signature.js';

const now = Date.UTC(2026, 0, 1, 12, 0, 0);
const DAY = 24 * 60 * 60_000;
const stamped = (iso: string) => new Headers({ 'x-zendesk-webhook-signature-timestamp': iso });
const ticketing = (headers: Headers) => ({
  verify: ticketingSignature,
  eventTime: ticketingEventTime,
  headers,
  occurredAt: '2026-01-01T12:00:00Z',
});
const deployment = (occurredAt: string) => ({
  verify: deploymentsSignature,
  eventTime: deploymentsEventTime,
  headers: new Headers(),
  occurredAt,
});
const outside = expect.objectContaining({ status: 401, code: 'timestamp_outside_window' });

describe('stage 5: replay window by a signed time (ticketing: +/- 5 minutes)', () => {
  it('accepts a signed time up to 5 minutes either side of now, and says until when a copy passes', () => {
    expect(checkTimestampWindow(ticketing(stamped('2026-01-01T12:05:00Z')), now)).toBe(now + 10 * 60_000);
    expect(checkTimestampWindow(ticketing(stamped('2026-01-01T11:55:00Z')), now)).toBe(now);
  });

  it('answers 401 just outside the window, either way', () => {
    for (const iso of ['2026-01-01T12:05:01Z', '2026-01-01T11:54:59Z', '2025-12-31T12:00:00Z']) {
      expect(() => checkTimestampWindow(ticketing(stamped(iso)), now), iso).toThrowError(outside);
    }
  });

  it('answers 401 when the signed time is missing or not ISO-8601', () => {
    expect(() => checkTimestampWindow(ticketing(new Headers()), now)).toThrowError(outside);
    expect(() => checkTimestampWindow(ticketing(stamped(String(now / 1000))), now)).toThrowError(outside);
  });
});

describe("stage 5: replay window by the payload's own time (deployments: a day old at most)", () => {
  it('accepts an event up to a day old, and a copy passes until the day is out', () => {
    expect(checkTimestampWindow(deployment('2026-01-01T11:59:00.000Z'), now)).toBe(now - 60_000 + DAY);
    expect(checkTimestampWindow(deployment('2025-12-31T12:00:00.000Z'), now)).toBe(now);
  });

  it('answers 401 to an event older than a day, or more than 5 minutes ahead of now, or with no time', () => {
    for (const iso of ['2025-12-31T11:59:59.999Z', '2026-01-01T12:05:00.001Z', 'not a time']) {
      expect(() => checkTimestampWindow(deployment(iso), now), iso).toThrowError(outside);
    }
  });

  it('ignores any time header: the signature covers none here', () => {
    const forged = { ...deployment('2025-06-01T00:00:00.000Z'), headers: stamped('2026-01-01T12:00:00Z') };
    expect(() => checkTimestampWindow(forged, now)).toThrowError(outside);
  });
});

describe('dedupe records last as long as the window, by construction', () => {
  it('keeps a record past the moment its delivery stops passing the window, whatever the floor', () => {
    for (const occurredAt of [
      '2026-01-01T11:59:00.000Z',
      '2025-12-31T12:00:01.000Z',
      '2026-01-01T12:04:00.000Z',
    ]) {
      const passesUntil = checkTimestampWindow(deployment(occurredAt), now);
      for (const floor of [0, 60_000, 7 * DAY]) {
        const ttl = doneTtlFor(passesUntil, now, floor);
        expect(now + ttl).toBeGreaterThan(passesUntil);
        expect(ttl).toBeGreaterThanOrEqual(floor);
      }
    }
  });
});
