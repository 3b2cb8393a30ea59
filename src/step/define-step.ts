import type * as z from 'zod';
import { definedMappingProblem } from '../mapping/mapping.js';
import type { Integration } from '../model/define-integration.js';
import type { AccountSchemaSource } from './account-fields.js';
import { type AnyEarlierMajor, earlierMajorsProblem, type StepVersions } from './earlier-major.js';
import { optionsDeclarationProblem } from './options-declaration.js';
import type { StepOptions } from './options-source.js';
import type { ReturnedValue } from './returned-value.js';
import type { StepContext } from './step-context.js';
import { type Deprecation, deprecationProblem, type VersionString, versionProblem } from './step-version.js';
import {
  type DeprecatedWriteSafety,
  settleWriteSafety,
  type WriteSafety,
  type WriteSafetyDeclaration,
  writeSafetyProblem,
} from './write-safety.js';

export type { ProgressRecords, StepContext } from './step-context.js';
export type {
  CheckHint,
  DeprecatedWriteSafety,
  GoneMeansDoneReplay,
  OnReplay,
  ReconcileReplay,
  RefuseReplay,
  ReplayDeclaration,
  StepAccess,
  WriteSafety,
  WriteSafetyDeclaration,
} from './write-safety.js';

/** Best and worst case cost of one invocation, in provider credits. */
export interface CreditEstimate {
  min: number;
  max: number;
}

/** How a paid step's cost is estimated before it runs, so a caller can refuse a call its budget does not cover. */
export interface CreditRule<Input> {
  /** How the provider counts, for people and agents reading the manifest. */
  basis: string;
  /** The cost range for this validated input, before any request is sent. */
  estimate(input: Input): CreditEstimate;
}

/** An input that works against the sandbox's seeded accounts: shown by `describe`, run by a test. */
export interface StepExample<Input> {
  /** What it does, in a few words. */
  title: string;
  input: Input;
}

/** `<integration>.<verb_noun>`: a step id whose prefix is the id of its integration. */
export type StepId<IntegrationId extends string = string> = `${IntegrationId}.${string}`;

/**
 * What every step declares besides its write safety: id, texts for people
 * and models, schemas and the handler. `Options` and `Account` are the
 * step's own `options` map and account schema (`defineStep` infers them), so
 * `registry.options` knows which fields have choices.
 */
export interface StepBasics<
  Input extends z.ZodType,
  Output extends z.ZodType,
  Owner extends Integration = Integration,
  Id extends StepId<Owner['id']> = StepId<Owner['id']>,
  Options extends object = StepOptions<z.input<Input>>,
  Account extends AccountSchemaSource<z.input<Input>> | undefined =
    | AccountSchemaSource<z.input<Input>>
    | undefined,
> {
  /** `<integration>.<verb_noun>`; the file name is the kebab form of the second half. A wrong prefix is a type error. */
  id: Id;
  /** Former ids that still resolve to this step (registry, CLI), listed in the manifest, never shown as steps. */
  aliases?: readonly StepId<Owner['id']>[];
  integration: Owner;
  /**
   * `major.minor` (default `1.0`): a new minor for what no saved
   * configuration can notice, a new major for what it could (see
   * docs/writing-an-integration.md#versions). The manifest and the
   * compatibility check read it.
   */
  version?: VersionString | undefined;
  /** One line per version (`{ '1.0': 'First version.', '2.0': '...' }`), shown in the manifest; it must cover `version`. */
  changelog?: Readonly<Record<string, string>> | undefined;
  /** Set on a major that is being retired: its replacement and the last day it is served. */
  deprecated?: Deprecation | undefined;
  /** Earlier majors still served through migrations to this one (`earlierMajor`), newest first. */
  earlier?: readonly AnyEarlierMajor[] | undefined;
  title: string;
  /** For people browsing the catalogue. */
  description: string;
  /** For models: when to use the step, what it costs, what not to do. */
  agentDescription: string;
  keywords: readonly string[];
  input: Input;
  output: Output;
  /** For paid lookups: how the cost is counted, and its estimate from the validated input. */
  credits?: CreditRule<z.output<Input>> | undefined;
  /** Default output-to-variable mapping: variable name to RFC 9535 JSONPath over the output. */
  variables: Readonly<Record<string, string>>;
  /** Input fields whose choices come from the connected account or a closed list (`registry.options`). */
  options?: Options | undefined;
  /** Input that depends on the account (custom fields), offered as named, typed properties (`registry.describe`). */
  accountSchema?: Account | undefined;
  /** Example inputs; every step of the catalogue has at least one, run against the sandbox by a test. */
  examples?: readonly StepExample<z.input<Input>>[];
  /**
   * Builds the provider request from validated input and shapes the answer
   * into `output`, which is validated after. A literal it returns keeps its
   * type without `as const` (see `ReturnedValue`).
   */
  run(input: z.output<Input>, context: StepContext): Promise<ReturnedValue<Output>>;
}

/**
 * What a step file hands to `defineStep`: its basics and its write safety,
 * `access`, `idempotent` and one `replay` declaration, checked together by
 * the compiler (or the deprecated four fields, checked when it is defined).
 */
export type StepDefinition<
  Input extends z.ZodType,
  Output extends z.ZodType,
  Owner extends Integration = Integration,
  Id extends StepId<Owner['id']> = StepId<Owner['id']>,
  Options extends object = StepOptions<z.input<Input>>,
  Account extends AccountSchemaSource<z.input<Input>> | undefined =
    | AccountSchemaSource<z.input<Input>>
    | undefined,
> = StepBasics<Input, Output, Owner, Id, Options, Account> &
  (
    | WriteSafetyDeclaration<z.output<Input>, ReturnedValue<Output>>
    | DeprecatedWriteSafety<z.output<Input>, ReturnedValue<Output>>
  );

/** A step once defined: its `replay` declaration settled into the fields the runtime reads (`WriteSafety`). */
export interface DefinedStep<
  Input extends z.ZodType,
  Output extends z.ZodType,
  Owner extends Integration = Integration,
  Id extends StepId<Owner['id']> = StepId<Owner['id']>,
  Options extends object = StepOptions<z.input<Input>>,
  Account extends AccountSchemaSource<z.input<Input>> | undefined =
    | AccountSchemaSource<z.input<Input>>
    | undefined,
> extends StepBasics<Input, Output, Owner, Id, Options, Account>,
    WriteSafety<z.output<Input>, z.input<Output>> {}

/**
 * A defined step, read-only, typed by its input and output schemas so
 * `invoke` is typed by step id, and by its options map and account schema so
 * `options` is typed by field.
 */
export type Step<
  Input extends z.ZodType = z.ZodType,
  Output extends z.ZodType = z.ZodType,
  Owner extends Integration = Integration,
  Id extends StepId<Owner['id']> = StepId<Owner['id']>,
  Options extends object = StepOptions<z.input<Input>>,
  Account extends AccountSchemaSource<z.input<Input>> | undefined =
    | AccountSchemaSource<z.input<Input>>
    | undefined,
> = Readonly<DefinedStep<Input, Output, Owner, Id, Options, Account>>;

/** Any step, whatever its schemas: what a registry and catalogue-wide code hold. */
// biome-ignore lint/suspicious/noExplicitAny: a registry holds steps of every input and output type.
export type AnyStep = Step<any, any>;

/**
 * Keeps the literal id in the step's type, so a registry types `invoke` by
 * id, and its options' keys, so `options` is typed by field. The output
 * schema is `const` so `run` returns literals without `as const`
 * (`ReturnedValue`). Settles the `replay` declaration into the fields the
 * runtime reads.
 *
 * `input` and `output` may be getters (`get input() { return z.object(...) }`):
 * each is built when first read and kept, so importing a catalogue does not
 * build every step's schemas (issue 37). A step reads the same either way.
 */
export function defineStep<
  const Id extends StepId<Owner['id']>,
  Input extends z.ZodType,
  const Output extends z.ZodType,
  Owner extends Integration,
  // The names of the fields `options` declares: inferred from its keys, which must be input fields.
  OptionFields extends keyof z.input<Input> & string = never,
  Account extends AccountSchemaSource<z.input<Input>> | undefined = undefined,
  const Version extends VersionString = '1.0',
  const Earlier extends readonly AnyEarlierMajor[] = readonly [],
>(
  definition: StepDefinition<
    Input,
    Output,
    Owner,
    Id,
    StepOptions<z.input<Input>> & { readonly [Field in OptionFields]?: unknown },
    Account
  > & { version?: Version; earlier?: Earlier },
): Step<Input, Output, Owner, Id, Pick<StepOptions<z.input<Input>>, OptionFields>, Account> &
  StepVersions<Version, Earlier> {
  // The type checks the prefix at compile time; this checks it for JavaScript callers and the name's form.
  for (const id of [definition.id, ...(definition.aliases ?? [])]) {
    const [prefix, name, extra] = id.split('.');
    if (
      prefix !== definition.integration.id ||
      !name ||
      extra !== undefined ||
      !/^[a-z][a-z0-9_]*$/.test(name)
    ) {
      throw new Error(`Step id "${id}" must be "${definition.integration.id}.<verb_noun>".`);
    }
  }
  // An input given as a getter is built when first read (see `copyWithGettersRunOnce`): the options
  // declared on its fields are checked then, so a wrong one still fails before any form or call uses it.
  const inputIsGetter = Object.getOwnPropertyDescriptor(definition, 'input')?.get !== undefined;
  const problem =
    versionProblem(definition) ??
    earlierMajorsProblem(definition) ??
    (definition.deprecated && deprecationProblem(definition.deprecated)) ??
    writeSafetyProblem(definition) ??
    (inputIsGetter ? undefined : optionsDeclarationProblem(definition)) ??
    definedMappingProblem(definition.variables);
  if (problem) throw new Error(`Step "${definition.id}": ${problem}`);
  const checkOptions = (input: Input) => {
    const late = optionsDeclarationProblem({
      input,
      options: definition.options,
      accountSchema: definition.accountSchema,
    });
    if (late) throw new Error(`Step "${definition.id}": ${late}`);
  };
  // Frozen through its default mapping too: the runtime compiles a frozen mapping once, not per call.
  const step = Object.assign(settleWriteSafety(definition, inputIsGetter ? { input: checkOptions } : {}), {
    variables: Object.freeze({ ...definition.variables }),
  });
  // The spread of a definition that is one of several shapes is not narrowed to the settled one.
  return Object.freeze(step) as Step<
    Input,
    Output,
    Owner,
    Id,
    Pick<StepOptions<z.input<Input>>, OptionFields>,
    Account
  > &
    StepVersions<Version, Earlier>;
}
