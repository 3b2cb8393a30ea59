import type * as z from 'zod';
import type { Integration } from '../model/define-integration.js';
import type { KnownId } from '../model/known-id.js';
import type { InvocationResult } from '../runtime/runtime.js';
import type { AnyStep } from '../step/define-step.js';
import type { OptionField, StepWithId } from '../step/step-lookups.js';
import type { AnyTrigger } from '../triggers/define-trigger.js';

/**
 * Whether `Steps` is any step at all: a `Registry` typed by hand (or not at
 * all), whose lookups take any id and field, as they did before registries
 * were typed from what they hold. Resolved before anything is compared, so a
 * typed registry stays assignable to a plain `Registry`.
 */
type AnyOf<Steps extends AnyStep> = AnyStep extends Steps ? true : false;

/**
 * What the step with id `Id` among `Steps` accepts as input (anything, for an
 * id it does not hold: the id's own error is the one worth reading).
 */
export type InvokeInput<Steps extends AnyStep, Id extends string> =
  AnyOf<Steps> extends true
    ? z.input<AnyStep['input']>
    : [SchemasAt<Steps, Id>] extends [never]
      ? unknown
      : z.input<SchemasAt<Steps, Id>['input']>;

/** What invoking the step with id `Id` among `Steps` returns. */
export type InvokeResult<Steps extends AnyStep, Id extends string> =
  AnyOf<Steps> extends true
    ? InvocationResult<z.output<AnyStep['output']>>
    : [SchemasAt<Steps, Id>] extends [never]
      ? InvocationResult
      : InvocationResult<z.output<SchemasAt<Steps, Id>['output']>>;

/**
 * The step id `invoke` takes: one `Steps` holds, or `id@major` for a major
 * it serves, written as a literal (any id, on a plain `Registry`).
 */
export type InvokeId<Steps extends AnyStep, Id extends string> =
  AnyOf<Steps> extends true
    ? string
    : string extends Id
      ? StepReferences<Steps>
      : KnownId<Id, StepReferences<Steps>>;

/** The step id `options` and `describe` take: one `Steps` holds (or `id@major`), or a `string` known only at run time. */
export type LookupId<Steps extends AnyStep, Id extends string> =
  AnyOf<Steps> extends true ? string : KnownId<Id, StepReferences<Steps>>;

/** The field names `options` takes for the step `Id`: those with declared choices (any name for an id known only at run time). */
export type OptionFieldOf<Steps extends AnyStep, Id extends string> =
  AnyOf<Steps> extends true
    ? string
    : string extends Id
      ? string
      : OptionField<StepWithId<Steps, WithoutMajor<Id>>>;

/** `x.y@1` -> `x.y`: a major's options are its step's (an earlier major declares none, refused at run time). */
type WithoutMajor<Id extends string> = Id extends `${infer Base}@${string}` ? Base : Id;

/** The major of `2.3` as a number literal (1 for a step without a version). */
type MajorOf<Version> = [NonNullable<Version>] extends [never]
  ? 1
  : NonNullable<Version> extends `${infer Major extends number}.${number}`
    ? WholeMajor<Major>
    : 1;

/**
 * A major the compiler knows, or 1 for a step whose version type is wide (a
 * step made by a factory such as `defineApiCallStep`, which takes no literal
 * version): a reference pattern such as `x.y@${number}` among the known ids
 * would stop the compiler inferring the literal id a caller wrote.
 */
type WholeMajor<Major extends number> = number extends Major ? 1 : Major;

/** The versions of a step's earlier majors, as a union. */
type EarlierVersions<S> = S extends { readonly earlier?: readonly (infer E)[] | undefined }
  ? E extends { readonly version: infer V }
    ? V
    : never
  : never;

/** Every reference a step answers to: its id, `id@<current major>` and `id@<earlier major>`. */
export type StepReferences<Steps extends AnyStep> = Steps extends AnyStep
  ? Steps['id'] | `${Steps['id']}@${MajorOf<Steps['version']> | MajorOf<EarlierVersions<Steps>>}`
  : never;

/** The input and output schemas the reference `Id` runs with: the step's, or an earlier major's. */
type SchemasAt<
  Steps extends AnyStep,
  Id extends string,
> = Id extends `${infer Base}@${infer Major extends number}`
  ? AtMajor<StepWithId<Steps, Base>, Major>
  : StepWithId<Steps, Id>;

type AtMajor<S, Major extends number> = S extends AnyStep
  ? MajorOf<S['version']> extends Major
    ? S
    : S extends { readonly earlier?: readonly (infer E)[] | undefined }
      ? E extends {
          readonly version: `${Major}.${number}`;
          readonly input: z.ZodType;
          readonly output: z.ZodType;
        }
        ? E
        : never
      : never
  : never;

/** What `Registry.from` registers: integrations first, then the steps and triggers defined against them. */
export interface RegistryContents<Steps extends AnyStep, Triggers extends AnyTrigger> {
  integrations: readonly Integration[];
  steps?: readonly Steps[];
  triggers?: readonly Triggers[];
}
