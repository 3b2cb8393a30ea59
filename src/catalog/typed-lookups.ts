import type { Integration } from '../model/define-integration.js';
import type { KnownId } from '../model/known-id.js';
import type { InvocationResult } from '../runtime/runtime.js';
import type { AnyStep } from '../step/define-step.js';
import type { OptionField, StepInput, StepOutput, StepWithId } from '../step/step-lookups.js';
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
    ? StepInput<AnyStep>
    : [StepWithId<Steps, Id>] extends [never]
      ? unknown
      : StepInput<StepWithId<Steps, Id>>;

/** What invoking the step with id `Id` among `Steps` returns. */
export type InvokeResult<Steps extends AnyStep, Id extends string> =
  AnyOf<Steps> extends true
    ? InvocationResult<StepOutput<AnyStep>>
    : [StepWithId<Steps, Id>] extends [never]
      ? InvocationResult
      : InvocationResult<StepOutput<StepWithId<Steps, Id>>>;

/** The step id `invoke` takes: one `Steps` holds, written as a literal (any id, on a plain `Registry`). */
export type InvokeId<Steps extends AnyStep, Id extends string> =
  AnyOf<Steps> extends true ? string : string extends Id ? Steps['id'] : KnownId<Id, Steps['id']>;

/** The step id `options` and `describe` take: one `Steps` holds, or a `string` known only at run time. */
export type LookupId<Steps extends AnyStep, Id extends string> =
  AnyOf<Steps> extends true ? string : KnownId<Id, Steps['id']>;

/** The field names `options` takes for the step `Id`: those with declared choices (any name for an id known only at run time). */
export type OptionFieldOf<Steps extends AnyStep, Id extends string> =
  AnyOf<Steps> extends true ? string : string extends Id ? string : OptionField<StepWithId<Steps, Id>>;

/** What `Registry.from` registers: integrations first, then the steps and triggers defined against them. */
export interface RegistryContents<Steps extends AnyStep, Triggers extends AnyTrigger> {
  integrations: readonly Integration[];
  steps?: readonly Steps[];
  triggers?: readonly Triggers[];
}
