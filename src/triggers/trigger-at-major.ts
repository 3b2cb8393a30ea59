import type * as z from 'zod';
import { keptPerMajor } from '../step/kept-per-major.js';
import { latestMajor, referenceOf } from '../step/step-version.js';
import type { AnyTrigger } from './define-trigger.js';
import type { EarlierTriggerMajor } from './earlier-trigger-major.js';

/** Every major a trigger serves, latest first. */
export function servedTriggerMajors(trigger: AnyTrigger): number[] {
  return [latestMajor(trigger), ...(trigger.earlier ?? []).map((major) => latestMajor(major))];
}

/** The earlier major each derived trigger serves, so the intake can reshape its payload. */
const servedBy = new WeakMap<AnyTrigger, EarlierTriggerMajor>();
const built = new WeakMap<AnyTrigger, Map<number, AnyTrigger>>();

/**
 * The trigger as its earlier major `major` offers it, or undefined when it
 * serves none such: its id written `id@major`, its version, deprecation and
 * default mapping. Delivery, signature, setup and filter stay the latest
 * major's (the provider sends one body); `payloadAtMajor` turns the latest
 * payload into this major's before it is mapped and handed over. Built once
 * per trigger and major.
 */
export function triggerAtEarlierMajor(trigger: AnyTrigger, major: number): AnyTrigger | undefined {
  return keptPerMajor(built, trigger, trigger.earlier, major, (earlier) => {
    const derived: AnyTrigger = Object.freeze({
      ...trigger,
      // Not a `TriggerId` to the compiler (it carries `@major`), and never one a trigger file declares.
      id: referenceOf(trigger.id, major) as AnyTrigger['id'],
      version: earlier.version,
      changelog: earlier.changelog,
      deprecated: earlier.deprecated,
      earlier: undefined,
      variables: earlier.variables,
    });
    servedBy.set(derived, earlier);
    return derived;
  });
}

/**
 * The payload a subscription of `trigger` maps and receives: the validated
 * one, or on an earlier major the latest payload through that major's
 * migration, checked against the major's own schema (a migration that no
 * longer produces it is a bug to see at once, not a mapping gone quiet).
 */
export function payloadAtMajor(trigger: AnyTrigger, payload: unknown): unknown {
  const earlier = servedBy.get(trigger);
  if (!earlier) return payload;
  const checked = earlier.payload.safeParse(earlier.downgradePayload(payload));
  if (checked.success) return checked.data;
  const paths = checked.error.issues.map((issue) => issue.path.join('.') || '(payload)');
  throw new Error(`${trigger.id}: the migrated payload does not match its schema at ${paths.join(', ')}.`);
}

/** The schema of the payload `trigger`'s mappings read: an earlier major's own, or the latest's event. */
export function payloadSchemaOf(trigger: AnyTrigger): z.ZodType {
  return servedBy.get(trigger)?.payload ?? trigger.event;
}
