import type { AnyStep } from './define-step.js';
import { servedMajors } from './step-at-major.js';
import { type Deprecation, FIRST_VERSION, latestMajor, parseReference, referenceOf } from './step-version.js';

/** What every surface shows of a step's version: the same facts in the CLI, MCP, the builder API and the manifest. */
export interface VersionFacts {
  /** `major.minor` of the major this step object serves. */
  version: string;
  /** `ticketing.list_tickets@2`: the reference that keeps naming this major after the next one ships. */
  reference: string;
  /** Every major of the step that is served, as references, latest first. */
  majors: string[];
  /** On a deprecated major: what to use instead and the last day it is served. */
  deprecated?: { replacement: string; endsOn: string };
}

/** Finds a step's latest major by id: the registry (`registry.step`). */
export interface StepFinder {
  step(id: string): AnyStep | undefined;
}

/** The version facts of a step, or of one of its earlier majors as the registry hands it out (`id@major`). */
export function versionFacts(step: AnyStep, steps: StepFinder): VersionFacts {
  const id = parseReference(step.id)?.id ?? step.id;
  const latest = steps.step(id) ?? step;
  const facts: VersionFacts = {
    version: step.version ?? FIRST_VERSION,
    reference: referenceOf(id, latestMajor(step)),
    majors: servedMajors(latest).map((major) => referenceOf(id, major)),
  };
  if (step.deprecated) facts.deprecated = { ...step.deprecated };
  return facts;
}

/**
 * One sentence for people and models reading a deprecated major's
 * description (a step's or a trigger's); empty for a major that is not deprecated.
 */
export function deprecationNote(step: { readonly deprecated?: Deprecation | undefined }): string {
  const deprecated = step.deprecated;
  if (!deprecated) return '';
  return `Deprecated: served until ${deprecated.endsOn}; use ${deprecated.replacement} instead.`;
}
