import type { Connection } from '../model/connection.js';
import type { Integration } from '../model/define-integration.js';
import { type DescribedInput, describeInput } from '../options/described-input.js';
import { type OptionsAnswer, type OptionsCall, resolveOptions } from '../options/resolve-options.js';
import type { InvocationResult, InvokeOptions, Runtime } from '../runtime/runtime.js';
import type { AnyStep } from '../step/define-step.js';
import type { AnyTrigger } from '../triggers/define-trigger.js';
import { CatalogShelf } from './catalog-shelf.js';
import type {
  InvokeId,
  InvokeInput,
  InvokeResult,
  LookupId,
  OptionFieldOf,
  RegistryContents,
} from './typed-lookups.js';
import { stepAtReference, triggerAtReference, unknownMajorError } from './versioned-lookup.js';

/** The steps a registry holds, by its type. */
export type StepsOf<R extends Registry> = NonNullable<R['holds']>['steps'];

/** One step found by `search`, with its rank so a search bar can cut off weak matches. */
export interface SearchHit {
  step: AnyStep;
  score: number;
}

/** One trigger found by `searchTriggers`, ranked like steps. */
export interface TriggerSearchHit {
  trigger: AnyTrigger;
  score: number;
}

/**
 * Holds integrations, steps and triggers, refuses duplicates, ranks search
 * results and invokes. `Steps` and `Triggers` are the unions of the step and
 * trigger types it holds: `Registry.from` takes them from what it registers,
 * so `invoke`, `options` and `describe` are typed by step id (and `options`
 * by field), and a subscription's trigger id is checked against its
 * triggers. A plain `Registry` holds any step, and ids from people or
 * models at run time go through `invokeUnchecked`. `new Registry()` and the
 * `register*` calls stay for registries built bit by bit, typed as holding
 * any step; a type written by hand (`new Registry<typeof a | typeof b>()`)
 * claims steps nothing checks it holds, so use `Registry.from` instead.
 */
export class Registry<Steps extends AnyStep = AnyStep, Triggers extends AnyTrigger = AnyTrigger> {
  /**
   * Type only, never set: the steps and triggers this registry holds, read
   * by its typed methods (through their `this`) and by `TriggerSubscriptions`
   * to check ids at compile time. The methods read it through `this` so that
   * their signatures do not depend on the class's parameters: a typed
   * registry stays assignable to a plain `Registry`.
   */
  declare readonly holds?: { steps: Steps; triggers: Triggers };

  /**
   * A registry of exactly these integrations, steps and triggers, typed by
   * them: a step id it does not hold is a compile error, never a step that
   * type-checks and fails at run time. Registers in the order given; throws
   * as the `register*` methods do (a duplicate id, a step whose integration
   * is not among `integrations`).
   */
  static from<Steps extends AnyStep = never, Triggers extends AnyTrigger = never>(
    contents: RegistryContents<Steps, Triggers>,
  ): Registry<Steps, Triggers> {
    const registry = new Registry<Steps, Triggers>();
    for (const integration of contents.integrations) registry.registerIntegration(integration);
    for (const step of contents.steps ?? []) registry.registerStep(step);
    for (const trigger of contents.triggers ?? []) registry.registerTrigger(trigger);
    return registry;
  }

  private readonly integrations = new Map<string, Integration>();
  // An item's integration is registered before it, and never replaced.
  private readonly steps = new CatalogShelf<AnyStep>(
    'step',
    (step) => this.integrations.get(step.integration.id)!,
  );
  private readonly triggers = new CatalogShelf<AnyTrigger>(
    'trigger',
    (trigger) => this.integrations.get(trigger.integration.id)!,
  );

  /** Adds an integration; its steps and triggers come after, so each can be checked against it. Throws on a duplicate id. */
  registerIntegration(integration: Integration): this {
    if (this.integrations.has(integration.id)) {
      throw new Error(`Integration "${integration.id}" is already registered.`);
    }
    this.integrations.set(integration.id, integration);
    return this;
  }

  /**
   * Adds a step of an integration registered before. Throws on a duplicate id
   * or alias, and on a step defined against another copy of its integration,
   * whose connections would not bind.
   */
  registerStep(step: AnyStep): this {
    this.steps.add(step, () => this.requireOwnIntegration('Step', step));
    return this;
  }

  /** Adds a trigger of an integration registered before; throws on a duplicate id. */
  registerTrigger(trigger: AnyTrigger): this {
    this.triggers.add(trigger, () => this.requireOwnIntegration('Trigger', trigger));
    return this;
  }

  private requireOwnIntegration(kind: string, item: AnyStep | AnyTrigger): void {
    const integration = this.integrations.get(item.integration.id);
    if (!integration)
      throw new Error(`${kind} "${item.id}" needs integration "${item.integration.id}" registered first.`);
    if (integration !== item.integration) {
      throw new Error(
        `${kind} "${item.id}" was defined against another instance of integration "${integration.id}".`,
      );
    }
  }

  /** The integration, or undefined: connection forms look one up by the id a user picked. */
  integration(id: string): Integration | undefined {
    return this.integrations.get(id);
  }

  /** Every integration, in registration order. */
  listIntegrations(): Integration[] {
    return [...this.integrations.values()];
  }

  /**
   * The step with this id or former id (its latest major), or at the major
   * a reference names (`ticketing.list_tickets@1`), or undefined.
   */
  step(reference: string): AnyStep | undefined {
    return stepAtReference(reference, (id) => this.steps.get(id));
  }

  /**
   * The step (by id, alias or `id@major`), or an InputError: for an unknown
   * id it suggests the closest ids, for a major the step does not serve it
   * names the majors it does.
   */
  requireStep(reference: string): AnyStep {
    const step = this.step(reference);
    if (step) return step;
    throw unknownMajorError('step', reference, (id) => this.steps.get(id)) ?? this.steps.require(reference);
  }

  /** Every step, or one integration's, in registration order; aliases are not listed twice. */
  listSteps(integrationId?: string): AnyStep[] {
    return this.steps.list(integrationId);
  }

  /**
   * The steps a tool-step search bar shows for `query`, best first: provider
   * name, title, keywords, id and description weigh in that order, so a
   * provider's name finds its integration's steps before ones that merely mention it.
   */
  search(query: string, limit = 20): SearchHit[] {
    return this.steps.search(query, limit).map(({ item, score }) => ({ step: item, score }));
  }

  /** The trigger with this id (or `id@major`, for its current major), or undefined. */
  trigger(reference: string): AnyTrigger | undefined {
    return triggerAtReference(reference, (id) => this.triggers.get(id));
  }

  /** The trigger, or an InputError that suggests the closest ids, or names the major it serves. */
  requireTrigger(reference: string): AnyTrigger {
    const trigger = this.trigger(reference);
    if (trigger) return trigger;
    throw (
      unknownMajorError('trigger', reference, (id) => this.triggers.get(id)) ??
      this.triggers.require(reference)
    );
  }

  /** Every trigger, or one integration's, in registration order. */
  listTriggers(integrationId?: string): AnyTrigger[] {
    return this.triggers.list(integrationId);
  }

  /** Ranked like step search: provider name, title, keywords, id, description. */
  searchTriggers(query: string, limit = 20): TriggerSearchHit[] {
    return this.triggers.search(query, limit).map(({ item, score }) => ({ trigger: item, score }));
  }

  /**
   * Runs the step with this id: the input is checked against the step's input
   * type at compile time (and its schema at run time), the output is the
   * step's output type, and an id the registry does not hold is a type error.
   */
  async invoke<const Id extends string, This extends Registry = Registry>(
    this: This,
    runtime: Runtime,
    stepId: InvokeId<StepsOf<This>, Id>,
    options: Omit<InvokeOptions, 'input'> & { input: InvokeInput<StepsOf<This>, Id> },
  ): Promise<InvokeResult<StepsOf<This>, Id>> {
    return runtime.invoke(this.requireStep(stepId), options);
  }

  /**
   * Runs a step whose id and input are only known at run time (the CLI, the
   * MCP server, agent tool calls, an alias): the schema still checks the
   * input, and an unknown id is an InputError that suggests the closest ids.
   */
  async invokeUnchecked(runtime: Runtime, stepId: string, options: InvokeOptions): Promise<InvocationResult> {
    return runtime.invoke(this.requireStep(stepId), options);
  }

  /**
   * The choices of one input field, from the connected account (or a closed
   * list, without one): `{ items: [{ value, label, description? }], next_cursor?, truncated }`.
   * Run through the step pipeline, cached briefly per tenant, connection,
   * field, query, cursor and depended-on input (docs/integrations.md#options-and-per-account-schemas).
   * The step id and the field are checked at compile time: an id this registry
   * does not hold, or a field whose choices the step does not declare, is a
   * type error (an id typed `string`, known only at run time, takes any field).
   */
  async options<const Id extends string, This extends Registry = Registry>(
    this: This,
    runtime: Runtime,
    stepId: LookupId<StepsOf<This>, Id>,
    field: OptionFieldOf<StepsOf<This>, Id>,
    call: OptionsCall = {},
  ): Promise<OptionsAnswer> {
    return resolveOptions(runtime, this.requireStep(stepId), field, call);
  }

  /**
   * A step's input schema (fields with options marked); with a runtime and a
   * connection, specialised to that account (its custom fields as named,
   * typed properties). An id this registry does not hold is a type error,
   * unless it is typed `string` (known only at run time).
   */
  async describe<const Id extends string, This extends Registry = Registry>(
    this: This,
    stepId: LookupId<StepsOf<This>, Id>,
    account?: { runtime: Runtime; connection: string | Connection; signal?: AbortSignal },
  ): Promise<DescribedInput & { step: string }> {
    const step = this.requireStep(stepId);
    return { step: step.id, ...(await describeInput(step, account)) };
  }
}
