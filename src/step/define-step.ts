import type * as z from 'zod';
import type { FetchFile } from '../http/fetch-file.js';
import type { HttpClient } from '../http/http-client.js';
import { definedMappingProblem } from '../mapping/mapping.js';
import type { PublicConnection } from '../model/connection.js';
import type { Integration } from '../model/define-integration.js';
import type { Logger } from '../model/logger.js';
import type { AccountSchemaSource } from './account-fields.js';
import { optionsDeclarationProblem } from './options-declaration.js';
import type { StepOptions } from './options-source.js';
import type { ReturnedValue } from './returned-value.js';

/** What a step may do to the account; agent exports and the builder use it to ask before a destructive call. */
export type StepAccess = 'read' | 'write' | 'destructive';

/** Records handled so far and in all, beside a step's own progress units. */
export interface ProgressRecords {
  done: number;
  total: number;
}

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

/**
 * What a step's `run` receives besides its input: everything is already bound
 * to the chosen connection, so a handler does no auth, retries or error
 * classification of its own.
 */
export interface StepContext {
  http: HttpClient;
  connection: PublicConnection;
  signal: AbortSignal | undefined;
  log: Logger;
  /** Credits the provider reported as charged; handlers add to it as responses say. */
  reportCredits(charged: number): void;
  /**
   * Work that outlives one request reports progress here: `done` of `total`
   * steps of the work (bulk batches, pages), and, when it can say, how many
   * records that is, for a progress bar that counts what the user gave.
   */
  progress(done: number, total: number, records?: ProgressRecords): void;
  /** Waits on the runtime's injectable clock (bulk runs back off here), so tests never wait. */
  sleep(ms: number): Promise<void>;
  /** Limits the embedder set for this invocation, e.g. `{ projects: ['web'] }`; empty when none. */
  constraints: Readonly<Record<string, readonly string[]>>;
  /**
   * Reads a file a step was given by URL (an attachment to upload), outside
   * the connection: no credentials, the runtime's deadline and a byte cap,
   * and only URLs (redirects included) the step's `allowed` rule accepts.
   */
  fetchFile: FetchFile;
}

/**
 * What the runtime does with a write that failed after its bytes may have
 * reached the provider (the connection broke, a gateway failed), or whose
 * replay was answered. The transport decides whether to replay at all, from
 * the error's `sent` and the request's idempotency (a step's `idempotent`, or
 * the method); the declaration decides what the outcome means:
 *
 * - `refuse` (what every write does without a declaration): a non-idempotent
 *   write is never replayed once it may have landed; the step fails with
 *   `outcome: 'unknown'`, `retryable: false`, and a hint to check before
 *   sending again (the step's `checkHint`, or a generic one).
 * - `gone_means_done`: for deleting something unique (a ticket, an invite, a
 *   membership). The step is idempotent, so the transport replays; a 404 that
 *   answers the replay means our first attempt did the work, and the step
 *   succeeds with `alreadyDone(input, ctx)`.
 * - `reconcile`: after a write that may have landed, or whose replay the
 *   provider refused, the runtime calls `reconcile(input, ctx)` to look at the
 *   provider: an output it returns is the step's output (the work is done);
 *   undefined means not found, and the step fails as under `refuse`. If the
 *   look itself fails, the write's error is kept, with the look's in
 *   `context.lookup`. A step may call its own `reconcile` before writing, too.
 *
 * A write found done is the runtime's outcome, kept beside the handler, not
 * an error it must let through: a handler's own try/catch needs no rethrow
 * for it, and whatever the handler then returns or throws, the step's output
 * is the settled one (the handler's later requests are refused unsent).
 */
export type OnReplay = 'gone_means_done' | 'refuse' | 'reconcile';

/** An input that works against the sandbox's seeded accounts: shown by `describe`, run by a test. */
export interface StepExample<Input> {
  /** What it does, in a few words. */
  title: string;
  input: Input;
}

/** `<integration>.<verb_noun>`: a step id whose prefix is the id of its integration. */
export type StepId<IntegrationId extends string = string> = `${IntegrationId}.${string}`;

/**
 * What a step file hands to `defineStep`: id, texts for people and models,
 * schemas, safety flags and the handler. `Options` and `Account` are the
 * step's own `options` map and account schema (`defineStep` infers them), so
 * `registry.options` knows which fields have choices.
 */
export interface StepDefinition<
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
  title: string;
  /** For people browsing the catalogue. */
  description: string;
  /** For models: when to use the step, what it costs, what not to do. */
  agentDescription: string;
  keywords: readonly string[];
  input: Input;
  output: Output;
  access: StepAccess;
  /** Whether sending the same input twice leaves the provider as sending it once. */
  idempotent: boolean;
  /** Write safety: what a write that may have landed, or a replay of it, means (see `OnReplay`). */
  onReplay?: OnReplay | undefined;
  /** For `gone_means_done`: the output when a replay finds the target already gone. */
  alreadyDone?: ((input: z.output<Input>, context: StepContext) => z.input<Output>) | undefined;
  /** For `reconcile`: finds the work an earlier attempt may have done; undefined when there is none (yet). */
  reconcile?:
    | ((input: z.output<Input>, context: StepContext) => Promise<z.input<Output> | undefined>)
    | undefined;
  /** What to check before sending this write again when it may have landed; undefined keeps the generic hint. */
  checkHint?: ((input: z.output<Input>) => string | undefined) | undefined;
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
> = Readonly<StepDefinition<Input, Output, Owner, Id, Options, Account>>;

/** Any step, whatever its schemas: what a registry and catalogue-wide code hold. */
// biome-ignore lint/suspicious/noExplicitAny: a registry holds steps of every input and output type.
export type AnyStep = Step<any, any>;

/**
 * Keeps the literal id in the step's type, so a registry types `invoke` by
 * id, and its options' keys, so `options` is typed by field. The output
 * schema is `const` so `run` returns literals without `as const` (`ReturnedValue`).
 */
export function defineStep<
  const Id extends StepId<Owner['id']>,
  Input extends z.ZodType,
  const Output extends z.ZodType,
  Owner extends Integration,
  // The names of the fields `options` declares: inferred from its keys, which must be input fields.
  OptionFields extends keyof z.input<Input> & string = never,
  Account extends AccountSchemaSource<z.input<Input>> | undefined = undefined,
>(
  definition: StepDefinition<
    Input,
    Output,
    Owner,
    Id,
    StepOptions<z.input<Input>> & { readonly [Field in OptionFields]?: unknown },
    Account
  >,
): Step<Input, Output, Owner, Id, Pick<StepOptions<z.input<Input>>, OptionFields>, Account> {
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
  const step: AnyStep = definition;
  const problem =
    replayDeclarationProblem(step) ??
    optionsDeclarationProblem(definition) ??
    definedMappingProblem(definition.variables);
  if (problem) throw new Error(`Step "${definition.id}": ${problem}`);
  // Frozen through its default mapping too: the runtime compiles a frozen mapping once, not per call.
  return Object.freeze({ ...definition, variables: Object.freeze({ ...definition.variables }) });
}

/** A write-safety declaration that cannot work, said when the step is defined rather than when it fails. */
function replayDeclarationProblem(
  definition: StepDefinition<z.ZodType, z.ZodType, Integration>,
): string | undefined {
  switch (definition.onReplay) {
    case 'gone_means_done':
      if (!definition.idempotent)
        return "onReplay 'gone_means_done' needs an idempotent step (the replay is what finds it gone).";
      return definition.alreadyDone ? undefined : "onReplay 'gone_means_done' needs alreadyDone(input, ctx).";
    case 'reconcile':
      return definition.reconcile ? undefined : "onReplay 'reconcile' needs reconcile(input, ctx).";
    default:
      // A free, idempotent read has nothing a replay could do twice.
      return definition.onReplay !== undefined && definition.access === 'read' && definition.idempotent
        ? 'onReplay is for steps whose replay could act or charge twice.'
        : undefined;
  }
}
