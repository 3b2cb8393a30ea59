import type * as z from 'zod';
import { definedMappingProblem } from '../mapping/mapping.js';
import { type PathMap, pathMapProblem } from '../mapping/path-map.js';
import { copyWithGettersRunOnce } from '../values/getters-run-once.js';
import {
  type Deprecation,
  deprecationProblem,
  latestMajor,
  majorOfVersion,
  type VersionString,
} from './step-version.js';

/** An input of an earlier major that works against the sandbox (as a step's `examples`). */
export interface EarlierExample<Input> {
  title: string;
  input: Input;
}

/** The new major's schemas, which a migration converts to and from. */
export interface LatestSchemas<Input extends z.ZodType, Output extends z.ZodType> {
  input: Input;
  output: Output;
}

/**
 * What a step author writes for an earlier major kept alive by migration:
 * its own schemas and mapping as they were released, and two pure
 * functions, so the latest handler serves both majors.
 */
export interface EarlierMajorDefinition<
  Version extends VersionString,
  OldInput extends z.ZodType,
  OldOutput extends z.ZodType,
  NewInput extends z.ZodType,
  NewOutput extends z.ZodType,
> {
  /** The last version released under that major (`1.4`): what saved configurations of it were made with. */
  version: Version;
  input: OldInput;
  output: OldOutput;
  /** The major's default output-to-variable mapping, as it was released. */
  variables: Readonly<Record<string, string>>;
  /** Every earlier major is deprecated: what replaces it, and the last day it is served. */
  deprecated: Deprecation;
  /** One line per version of that major, as the manifest showed them. */
  changelog?: Readonly<Record<string, string>> | undefined;
  examples?: readonly EarlierExample<z.input<OldInput>>[] | undefined;
  /** Pure: the validated old input as the new major's input (then checked against the new schema). */
  upgradeInput(input: z.output<OldInput>): z.input<NewInput>;
  /** Pure: the new major's validated output in the old shape, so saved mappings read the paths they were made on. */
  downgradeOutput(output: z.output<NewOutput>): z.input<OldOutput>;
  /**
   * Where the old output's paths are in the new one (`'$.tickets[*].id':
   * '$.items[*].ticket_id'`), `null` for one with no counterpart; omitted
   * when no path moved. Upgrading a draft rewrites its mapping through it.
   */
  outputPaths?: PathMap | undefined;
}

/**
 * An earlier major as a step holds it (`earlier`): the migrations' types are
 * erased, since a step holds majors of several shapes; the schemas keep
 * theirs, so a typed registry types `invoke('x.y@1')` by the old input.
 */
export interface EarlierMajor<
  Version extends VersionString = VersionString,
  OldInput extends z.ZodType = z.ZodType,
  OldOutput extends z.ZodType = z.ZodType,
> {
  readonly version: Version;
  readonly input: OldInput;
  readonly output: OldOutput;
  readonly variables: Readonly<Record<string, string>>;
  readonly deprecated: Deprecation;
  readonly changelog?: Readonly<Record<string, string>> | undefined;
  readonly examples?: readonly EarlierExample<z.input<OldInput>>[] | undefined;
  /** The major's pure migration of a validated old input to the latest major's input. */
  readonly upgradeInput: (input: z.output<OldInput>) => unknown;
  /** The major's pure migration of the latest major's validated output back to the old shape. */
  // biome-ignore lint/suspicious/noExplicitAny: the new major's output type is erased with the step's.
  readonly downgradeOutput: (output: any) => z.input<OldOutput>;
  /** Where the old output's paths are in the new one; omitted when none moved. */
  readonly outputPaths?: PathMap | undefined;
}

/** Any earlier major, whatever its schemas. */
// biome-ignore lint/suspicious/noExplicitAny: a step holds earlier majors of every shape.
export type AnyEarlierMajor = EarlierMajor<VersionString, any, any>;

/**
 * Declares an earlier major of a step as a migration to the latest one.
 * `latest` is the step's current input and output schemas: they type the
 * two functions, so a migration that forgets a field is a compile error.
 * Checks the version, mapping and deprecation where it is written.
 */
export function earlierMajor<
  const Version extends VersionString,
  OldInput extends z.ZodType,
  OldOutput extends z.ZodType,
  NewInput extends z.ZodType,
  NewOutput extends z.ZodType,
>(
  latest: LatestSchemas<NewInput, NewOutput>,
  definition: EarlierMajorDefinition<Version, OldInput, OldOutput, NewInput, NewOutput>,
): EarlierMajor<Version, OldInput, OldOutput> {
  void latest;
  // Named fields, not a spread: a spread would run the schema getters and build the schemas now.
  const problem = earlierDefinitionProblem({
    version: definition.version,
    deprecated: definition.deprecated,
    variables: definition.variables,
    paths: definition.outputPaths ?? {},
  });
  if (problem) throw new Error(`Earlier major ${definition.version}: ${problem}`);
  // Getters stay getters, each run once (see `copyWithGettersRunOnce`).
  return Object.freeze(
    Object.assign(copyWithGettersRunOnce(definition), {
      variables: Object.freeze({ ...definition.variables }),
    }),
  );
}

/** Why an earlier major's version, deprecation, default mapping or path map (of a step or a trigger) is not well formed, or undefined. */
export function earlierDefinitionProblem(definition: {
  version: string;
  deprecated: Deprecation;
  variables: Readonly<Record<string, string>>;
  paths: PathMap;
}): string | undefined {
  return (
    (majorOfVersion(definition.version) === undefined
      ? `earlier version "${definition.version}" must be major.minor`
      : undefined) ??
    deprecationProblem(definition.deprecated) ??
    definedMappingProblem(definition.variables) ??
    pathMapProblem(definition.paths)
  );
}

/**
 * The literal version and earlier majors of a defined step, in its type, so
 * a typed registry knows `ticketing.list_tickets@1` and its old input.
 */
export interface StepVersions<Version extends VersionString, Earlier extends readonly AnyEarlierMajor[]> {
  readonly version?: Version | undefined;
  readonly earlier?: Earlier | undefined;
}

/** Why the earlier majors (of a step or a trigger) do not sit below the current one, each once, or undefined. */
export function earlierMajorsProblem(definition: {
  version?: string | undefined;
  earlier?: readonly { readonly version: string }[] | undefined;
}): string | undefined {
  const current = latestMajor(definition);
  const seen = new Set<number>();
  for (const earlier of definition.earlier ?? []) {
    const major = latestMajor(earlier);
    if (major >= current) return `earlier major ${earlier.version} is not below the current version`;
    if (seen.has(major)) return `earlier major ${major} is declared twice`;
    seen.add(major);
  }
  return undefined;
}
