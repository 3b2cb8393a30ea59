import type * as z from 'zod';
import type { PathMap } from '../mapping/path-map.js';
import { earlierDefinitionProblem } from '../step/earlier-major.js';
import type { Deprecation, VersionString } from '../step/step-version.js';
import { copyWithGettersRunOnce } from '../values/getters-run-once.js';

/**
 * What a trigger author writes for an earlier major kept alive by
 * migration: its payload schema and mapping as they were released, a pure
 * function from the new payload to the old one, and where the old paths
 * went. The provider's delivery, its signature, the setup and the filter
 * are the latest major's: one intake serves both majors, and a subscription
 * saved on the old one receives the old shape.
 */
export interface EarlierTriggerMajorDefinition<
  Version extends VersionString,
  OldPayload extends z.ZodType,
  NewPayload extends z.ZodType,
> {
  /** The last version released under that major (`1.2`): what subscriptions of it were made with. */
  version: Version;
  /** The payload as that major's mappings read it, copied from the release (never derived from the new one). */
  payload: OldPayload;
  /** The major's default payload-to-variable mapping, as it was released. */
  variables: Readonly<Record<string, string>>;
  /** Every earlier major is deprecated: what replaces it, and the last day it is served. */
  deprecated: Deprecation;
  /** One line per version of that major, as the manifest showed them. */
  changelog?: Readonly<Record<string, string>> | undefined;
  /** Pure: the latest major's validated payload in the old shape, so saved mappings read the paths they were made on. */
  downgradePayload(payload: z.output<NewPayload>): z.input<OldPayload>;
  /**
   * Where the old payload's paths are in the new one (`'$.event.current':
   * '$.event.assignee_id'`), `null` for one with no counterpart: upgrading a
   * subscription rewrites its mapping through it (`toolsteps upgrade`).
   */
  paths: PathMap;
}

/** An earlier trigger major as a trigger holds it (`earlier`): the migration's types erased. */
export interface EarlierTriggerMajor<Version extends VersionString = VersionString> {
  readonly version: Version;
  readonly payload: z.ZodType;
  readonly variables: Readonly<Record<string, string>>;
  readonly deprecated: Deprecation;
  readonly changelog?: Readonly<Record<string, string>> | undefined;
  /** The major's pure migration of the latest major's validated payload to the old shape. */
  // biome-ignore lint/suspicious/noExplicitAny: the new major's payload type is erased with the trigger's.
  readonly downgradePayload: (payload: any) => unknown;
  readonly paths: PathMap;
}

/**
 * Declares an earlier major of a trigger as a migration to the latest one.
 * `latest` is the trigger's current payload schema (its `event`): it types
 * `downgradePayload`, so a migration that forgets a field is a compile
 * error. Checks the version, mapping, path map and deprecation where it is written.
 */
export function earlierTriggerMajor<
  const Version extends VersionString,
  OldPayload extends z.ZodType,
  NewPayload extends z.ZodType,
>(
  latest: { event: NewPayload },
  definition: EarlierTriggerMajorDefinition<Version, OldPayload, NewPayload>,
): EarlierTriggerMajor<Version> {
  void latest;
  const problem = earlierDefinitionProblem(definition);
  if (problem) throw new Error(`Earlier trigger major ${definition.version}: ${problem}`);
  // Getters stay getters, each run once (see `copyWithGettersRunOnce`): a spread would build the payload schema now.
  return Object.freeze(
    Object.assign(copyWithGettersRunOnce(definition), {
      variables: Object.freeze({ ...definition.variables }),
      paths: Object.freeze({ ...definition.paths }),
    }),
  );
}
