import { createHmac, randomBytes } from 'node:crypto';
import type { Clock } from '../../model/clock.js';
import { IntakeRefusal, type RefusalCode } from './intake-refusal.js';
import { consumeBodyWithinLimit, type DeliveryBody } from './read-body-within-limit.js';

/**
 * What the sender of a delivery nobody here could verify is told, whatever
 * the reason: no subscription at the path, its trigger not served here, no
 * signing secret, or a signature that does not match. One answer for all of
 * them, so the intake is no oracle for which subscription ids exist.
 */
export const UNVERIFIED_ANSWER: Readonly<Record<string, unknown>> = Object.freeze({
  status: 'unauthorized',
  message:
    'Not accepted: no subscription at this path verifies this delivery (unknown path, or a signature that is missing or does not match).',
});

/** A 401 whose own code and message go to the operator's log; the sender gets UNVERIFIED_ANSWER. */
export function unverified(code: RefusalCode, message: string): IntakeRefusal {
  return new IntakeRefusal(401, code, message, [], UNVERIFIED_ANSWER);
}

/** Keyed afresh per process: the digest is thrown away, the work is what counts. */
const DECOY_KEY = randomBytes(32);

/**
 * Reads the body of a delivery that cannot be verified the way a verified
 * one is read (to its end, within the size limit, through an HMAC), so an
 * unknown id is not answered before its body is in, as a known one is not;
 * but the bytes are not kept, so a flood of bodies to made-up ids holds no
 * memory.
 */
export async function readUnverifiable(
  body: DeliveryBody,
  declaredLength: number | undefined,
  limit: number,
): Promise<void> {
  const mac = createHmac('sha256', DECOY_KEY);
  await consumeBodyWithinLimit(body, declaredLength, limit, (chunk) => mac.update(chunk));
  mac.digest();
}

/** The least time, by default, from a delivery's arrival to a refusal made before its signature held. */
export const DEFAULT_UNVERIFIED_FLOOR_MS = 20;

/** When a delivery arrived and when its body was in: what the answer time of a refusal may depend on. */
export interface DeliveryTimes {
  arrived: number;
  bodyRead?: number;
}

/**
 * Waits until a refusal made before the signature was verified may go out:
 * `floorMs` after the delivery arrived, and a quarter of it after its body
 * was in. The work before that answer differs between an unknown id and a
 * known one (a store lookup that finds a record, the scheme's own hash);
 * answered on this schedule, the time the sender sees does not. A timer
 * set during that work can fire early by as much as the work took, so the
 * wait stops short of the time and then steps a millisecond at a time:
 * each step starts from a fresh timer phase, so the answer goes out on the
 * first tick past the time, wherever the work left off.
 */
export async function untilUnverifiedAnswer(
  clock: Clock,
  times: DeliveryTimes,
  floorMs: number,
): Promise<void> {
  if (floorMs <= 0) return;
  const due = Math.max(times.arrived + floorMs, (times.bodyRead ?? times.arrived) + floorMs / 4);
  const ahead = due - clock.now();
  if (ahead > STEP_LEAD_MS) await clock.sleep(ahead - STEP_LEAD_MS);
  while (clock.now() < due) await clock.sleep(1);
}

/** How far before the time the single-millisecond steps begin: more than a timer fires early. */
const STEP_LEAD_MS = 3;
