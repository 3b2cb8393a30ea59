import type { SignatureScheme } from '../define-trigger.js';
import { IntakeRefusal } from './intake-refusal.js';

/**
 * Stage 4, timestamp window, where the provider signs a time: a delivery
 * whose signed time is missing or further than the scheme's tolerance from
 * `now` (either way) is a replay or a forgery, and answers 401. Runs after
 * the signature check, so the time it reads is one the provider signed.
 */
export function checkTimestampWindow(scheme: SignatureScheme, headers: Headers, now: number): void {
  if (!scheme.signedTime) return;
  const signed = scheme.signedTime(headers);
  const tolerance = scheme.toleranceMs ?? 5 * 60_000;
  if (signed === undefined) {
    throw new IntakeRefusal(
      401,
      'timestamp_outside_window',
      'The signed timestamp is missing or unreadable.',
    );
  }
  if (Math.abs(now - signed) > tolerance) {
    throw new IntakeRefusal(
      401,
      'timestamp_outside_window',
      `The signed timestamp is ${Math.round((now - signed) / 1000)} s from now; at most ${tolerance / 1000} s is accepted.`,
    );
  }
}
