import type { Registry } from '../../src/catalog/registry.js';
import type { InvokeInput, InvokeResult, StepReferences } from '../../src/catalog/typed-lookups.js';
import type { InvocationResult, InvokeOptions, Runtime } from '../../src/runtime/runtime.js';
import { type CatalogStep, type CatalogTrigger, createRegistry } from '../../steps/index.js';

/** The id of a step in the catalogue, or `id@major`, as a literal: `'ticketing.create_ticket' | 'ticketing.list_tickets@1' | ...`. */
export type CatalogStepName = StepReferences<CatalogStep>;
/** What the step with this id accepts. */
export type CatalogInput<Id extends CatalogStepName> = InvokeInput<CatalogStep, Id>;
/** What invoking the step with this id returns. */
export type CatalogResult<Id extends CatalogStepName> = InvokeResult<CatalogStep, Id>;
/** Everything of `InvokeOptions` but the input; `connection` overrides the fixture's default. */
export type InvokeExtras = Partial<Omit<InvokeOptions, 'input'>>;

/** Runs a step, typed by id: a wrong id, a misspelt field or a wrong value type is a type error. */
export type TypedInvoke<Extra> = <const Id extends CatalogStepName>(
  stepId: Id,
  input: CatalogInput<Id>,
  extra?: Extra,
) => Promise<CatalogResult<Id>>;

/** Runs a step with input the types would refuse: for tests of what the schemas and the runtime refuse. */
export type UncheckedInvoke<Extra> = (
  stepId: string,
  input: unknown,
  extra?: Extra,
) => Promise<InvocationResult>;

export interface CatalogInvokers {
  registry: Registry<CatalogStep, CatalogTrigger>;
  invoke: TypedInvoke<InvokeExtras>;
  invokeUnchecked: UncheckedInvoke<InvokeExtras>;
}

/** The catalogue's registry and the two ways tests invoke it, bound to a runtime and a default connection. */
export function catalogInvokers(runtime: Runtime, connection: string): CatalogInvokers {
  const registry = createRegistry();
  function invoke<const Id extends CatalogStepName>(
    stepId: Id,
    input: CatalogInput<Id>,
    extra: InvokeExtras = {},
  ): Promise<CatalogResult<Id>> {
    // The same aliases as the registry's signature, but while Id is generic TS does not equate
    // the catalogue union it has distributed with the one it has not; callers get the checked types.
    const options = { connection, input, ...extra } as never;
    return registry.invoke(runtime, stepId as never, options) as unknown as Promise<CatalogResult<Id>>;
  }
  return {
    registry,
    invoke,
    invokeUnchecked: (stepId, input, extra = {}) =>
      registry.invokeUnchecked(runtime, stepId, { connection, input, ...extra }),
  };
}
