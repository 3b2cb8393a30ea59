import type { z } from 'zod';
import type { PublicConnection } from './connection/connection.js';
import type { HttpClient } from './http/http-client.js';
import type { Integration } from './integration.js';
import type { Logger } from './logger.js';

export type StepAccess = 'read' | 'write' | 'destructive';

/** Best and worst case cost of one invocation, in provider credits. */
export interface CreditEstimate {
  min: number;
  max: number;
}

export interface CreditRule<Input> {
  /** How the provider counts, for people and agents reading the manifest. */
  basis: string;
  estimate(input: Input): CreditEstimate;
}

export interface StepContext {
  http: HttpClient;
  connection: PublicConnection;
  signal: AbortSignal | undefined;
  log: Logger;
  /** Credits the provider reported as charged; handlers add to it as responses say. */
  reportCredits(charged: number): void;
  /** Work that outlives one request (bulk batches) reports progress here. */
  progress(done: number, total: number): void;
  /** Waits on the runtime's injectable clock (bulk runs back off here), so tests never wait. */
  sleep(ms: number): Promise<void>;
  /** Limits the embedder set for this invocation, e.g. `{ projects: ['web'] }`; empty when none. */
  constraints: Readonly<Record<string, readonly string[]>>;
}

/** `<integration>.<verb_noun>`: a step id whose prefix is the id of its integration. */
export type StepId<IntegrationId extends string = string> = `${IntegrationId}.${string}`;

export interface StepDefinition<
  Input extends z.ZodType,
  Output extends z.ZodType,
  Owner extends Integration = Integration,
> {
  /** `<integration>.<verb_noun>`; the file name is the kebab form of the second half. A wrong prefix is a type error. */
  id: StepId<Owner['id']>;
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
  /** For paid lookups: how the cost is counted, and its estimate from the validated input. */
  credits?: CreditRule<z.output<Input>> | undefined;
  /** Default output-to-variable mapping: variable name to RFC 9535 JSONPath over the output. */
  variables: Readonly<Record<string, string>>;
  run(input: z.output<Input>, context: StepContext): Promise<z.input<Output>>;
}

export type Step<
  Input extends z.ZodType = z.ZodType,
  Output extends z.ZodType = z.ZodType,
  Owner extends Integration = Integration,
> = Readonly<StepDefinition<Input, Output, Owner>>;

// biome-ignore lint/suspicious/noExplicitAny: a registry holds steps of every input and output type.
export type AnyStep = Step<any, any>;

export function defineStep<Input extends z.ZodType, Output extends z.ZodType, Owner extends Integration>(
  definition: StepDefinition<Input, Output, Owner>,
): Step<Input, Output, Owner> {
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
  return Object.freeze(definition);
}
