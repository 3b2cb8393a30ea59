import type { EventTimeSource, SignatureScheme } from '../define-trigger.js';
import { IntakeRefusal } from './intake-refusal.js';

/** How far a signed time may be from our clock by default, and how far ahead a payload's time may be. */
export const DEFAULT_TIME_TOLERANCE_MS = 5 * 60_000;

/** What the window reads: the trigger's declarations and the delivery's signed parts. */
export interface WindowInput {
  verify: SignatureScheme;
  eventTime: EventTimeSource;
  headers: Headers;
  /** `occurredAt` as the trigger's `parse` read it from the signed body. */
  occurredAt: string;
}

function outside(message: string): IntakeRefusal {
  return new IntakeRefusal(401, 'timestamp_outside_window', message);
}

/** Whole seconds for a message, either way. */
const seconds = (ms: number) => Math.round(ms / 1000);

/**
 * Stage 5, replay window, by the time the trigger says its deliveries carry
 * (`eventTime`): a time the provider signs in a header must be within the
 * scheme's tolerance of `now`; the event's own time in the payload may be at
 * most `maxAgeMs` old and not ahead by more than clock skew. Outside, or
 * unreadable, is a replay or a forgery: 401. Runs after the signature check
 * and the parse, so the time it reads is one the provider signed.
 *
 * Returns the last moment a copy of this delivery would still pass, which
 * is how long its dedupe record must last.
 */
export function checkTimestampWindow(input: WindowInput, now: number): number {
  if (input.eventTime.from === 'signature') {
    const signed = input.verify.signedTime?.(input.headers);
    const tolerance = input.verify.toleranceMs ?? DEFAULT_TIME_TOLERANCE_MS;
    if (signed === undefined) throw outside('The signed timestamp is missing or unreadable.');
    if (Math.abs(now - signed) > tolerance) {
      throw outside(
        `The signed timestamp is ${seconds(now - signed)} s from now; at most ${seconds(tolerance)} s is accepted.`,
      );
    }
    return signed + tolerance;
  }
  const { maxAgeMs } = input.eventTime;
  const happened = Date.parse(input.occurredAt);
  if (!Number.isFinite(happened)) throw outside('The event time in the payload is unreadable.');
  if (now - happened > maxAgeMs || happened - now > DEFAULT_TIME_TOLERANCE_MS) {
    throw outside(
      `The event happened ${seconds(now - happened)} s ago; from ${seconds(-DEFAULT_TIME_TOLERANCE_MS)} to ${seconds(maxAgeMs)} s is accepted.`,
    );
  }
  return happened + maxAgeMs;
}

/**
 * How long a handled event's dedupe record is kept: `atLeastMs` (past every
 * provider's retries), and in any case until a copy of the delivery no
 * longer passes the window, plus clock skew for a listener whose clock runs
 * behind. So the relation holds by construction: while a replay would pass
 * the window, its record is there to make it a duplicate.
 */
export function doneTtlFor(passesUntil: number, now: number, atLeastMs: number): number {
  return Math.max(atLeastMs, passesUntil - now + DEFAULT_TIME_TOLERANCE_MS);
}
