import * as z from 'zod';
import type { Connection } from '../model/connection.js';
import type { AnyStep } from '../step/define-step.js';
import { MAX_OPTION_ITEMS, type OptionsContext } from '../step/options-source.js';
import type { AnswerCache } from './answer-cache.js';
import type { InvocationResult, InvokeOptions } from './invocation.js';

/**
 * What options and per-account schemas need of the runtime: its pipeline
 * and its answer cache. The Runtime is one; a structural type here keeps
 * the runtime and this folder free of an import circle.
 */
export interface OptionsRuntime {
  invoke<Output = unknown>(step: AnyStep, options: InvokeOptions): Promise<InvocationResult<Output>>;
  readonly answers: AnswerCache;
  /** The tenant whose stores the runtime reads; answers are cached per tenant. */
  readonly tenant?: string | undefined;
}

const NO_VARIABLES = Object.freeze({});

/** The id of a connection reference, for cache keys. */
export function connectionIdOf(connection: string | Connection): string {
  return typeof connection === 'string' ? connection : connection.id;
}

/** The cache key of one answer: the tenant first, so no tenant ever reads another's. */
export function answerKey(runtime: OptionsRuntime, parts: unknown[]): string {
  return JSON.stringify([runtime.tenant ?? 'default', ...parts]);
}

/**
 * Runs a read for a step's options or account schema through the step
 * pipeline, as a read of the step's own integration: the connection is bound
 * (and refreshed), requests go through its rate gate, retries, deadlines and
 * body cap, a stray parse failure is an OutputError, and the answer must pass
 * `output` with the connection's secrets redacted.
 */
export async function providerRead<Output extends z.ZodType>(
  runtime: OptionsRuntime,
  owner: AnyStep,
  what: string,
  read: {
    output: Output;
    connection: string | Connection;
    signal?: AbortSignal | undefined;
    constraints?: Readonly<Record<string, readonly string[]>> | undefined;
    load(context: OptionsContext): Promise<unknown>;
  },
): Promise<z.output<Output>> {
  const step: AnyStep = {
    id: `${owner.id}:${what}` as AnyStep['id'],
    integration: owner.integration,
    title: `${owner.title}: ${what}`,
    description: owner.description,
    agentDescription: owner.agentDescription,
    keywords: owner.keywords,
    input: z.object({}),
    output: read.output,
    access: 'read',
    idempotent: true,
    variables: NO_VARIABLES,
    run: (_input, context) =>
      read.load({
        http: context.http,
        connection: context.connection,
        signal: context.signal,
        log: context.log,
        limit: MAX_OPTION_ITEMS,
        constraints: context.constraints,
      }),
  };
  const result = await runtime.invoke<z.output<Output>>(step, {
    connection: read.connection,
    input: {},
    ...(read.signal ? { signal: read.signal } : {}),
    ...(read.constraints ? { constraints: read.constraints } : {}),
  });
  return result.output;
}
