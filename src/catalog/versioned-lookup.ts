import { InputError } from '../errors/index.js';
import type { AnyStep } from '../step/define-step.js';
import { servedMajors, stepAtEarlierMajor } from '../step/step-at-major.js';
import { latestMajor, parseReference } from '../step/step-version.js';
import type { AnyTrigger } from '../triggers/define-trigger.js';
import { servedTriggerMajors, triggerAtEarlierMajor } from '../triggers/trigger-at-major.js';

/** A shelf's lookup by id or former id (`CatalogShelf.get`). */
type ById<Item> = (id: string) => Item | undefined;

/**
 * The step a reference names: `id` (or a former id) is the latest major,
 * `id@N` is major N, the latest itself or an earlier one served through its
 * migration. Undefined when the id is unknown or the major is not served.
 */
export function stepAtReference(reference: string, byId: ById<AnyStep>): AnyStep | undefined {
  const parsed = parseReference(reference);
  const step = parsed && byId(parsed.id);
  if (!parsed || !step) return undefined;
  if (parsed.major === undefined || parsed.major === latestMajor(step)) return step;
  return stepAtEarlierMajor(step, parsed.major);
}

/**
 * The trigger a reference names: `id` is the latest major, `id@N` major N,
 * the latest itself or an earlier one served through its payload migration.
 */
export function triggerAtReference(reference: string, byId: ById<AnyTrigger>): AnyTrigger | undefined {
  const parsed = parseReference(reference);
  const trigger = parsed && byId(parsed.id);
  if (!parsed || !trigger) return undefined;
  if (parsed.major === undefined || parsed.major === latestMajor(trigger)) return trigger;
  return triggerAtEarlierMajor(trigger, parsed.major);
}

/**
 * The InputError for a reference whose id is known but whose major is not
 * served (or is not a major at all), naming the majors that are; undefined
 * when the id itself is unknown, which the shelf's own error explains.
 */
export function unknownMajorError(
  noun: 'step' | 'trigger',
  reference: string,
  byId: ById<{ readonly id: string; readonly version?: string | undefined; readonly earlier?: unknown }>,
): InputError | undefined {
  const at = reference.lastIndexOf('@');
  const found = at > 0 ? byId(reference.slice(0, at)) : undefined;
  if (!found) return undefined;
  const majors = noun === 'step' ? servedMajors(found as AnyStep) : servedTriggerMajors(found as AnyTrigger);
  const listed = majors.map((major) => `${found.id}@${major}`).join(', ');
  return new InputError(`The ${noun} "${reference}" is not served: its majors are ${listed}.`, [
    { path: 'version', message: `unknown major; available: ${majors.join(', ')}` },
  ]);
}
