import * as z from 'zod';
import { fieldIssues, listIssues } from '../errors/field-issues.js';
import { InputError } from '../errors/index.js';
import type { Connection } from '../model/connection.js';
import { accountFieldsOf } from '../runtime/account-input.js';
import { answerKey, connectionIdOf, type OptionsRuntime, providerRead } from '../runtime/provider-read.js';
import type { AnyStep } from '../step/define-step.js';
import {
  MAX_OPTION_ITEMS,
  OPTIONS_CACHE_TTL_MS,
  type OptionItem,
  OptionsPage,
  type OptionsSource,
  pageOfFixed,
} from '../step/options-source.js';
import { builtOnce } from '../values/built-once.js';

/** What a caller asks for: the connection (not needed for a closed list), a search, a cursor, the input so far. */
export interface OptionsCall {
  connection?: string | Connection | undefined;
  query?: string | undefined;
  cursor?: string | undefined;
  input?: Record<string, unknown> | undefined;
  signal?: AbortSignal | undefined;
  constraints?: Readonly<Record<string, readonly string[]>> | undefined;
}

/** What every surface answers. */
export interface OptionsAnswer {
  items: OptionItem[];
  next_cursor?: string;
  /** True when the resolver returned more than MAX_OPTION_ITEMS and the rest was cut. */
  truncated: boolean;
}

const CallShape = builtOnce(() =>
  z.object({
    query: z.string().max(200).optional(),
    cursor: z.string().max(2000).optional(),
    input: z.record(z.string(), z.unknown()).optional(),
  }),
);

/** The step's source for `field`, or an InputError naming the fields that have options. */
function sourceOf(step: AnyStep, field: string): OptionsSource {
  const source = (step.options as Record<string, OptionsSource | undefined> | undefined)?.[field];
  if (source) return source;
  const offered = Object.keys(step.options ?? {});
  throw new InputError(
    `Field "${field}" of ${step.id} has no options.${offered.length ? ` Fields with options: ${offered.join(', ')}.` : ''}`,
    [{ path: 'field', message: 'no options for this field' }],
  );
}

/** The depended-on fields the caller filled, each checked against the step's own schema for it. */
function dependedInput(step: AnyStep, source: OptionsSource, input: Record<string, unknown>) {
  const shape = step.input instanceof z.ZodObject ? (step.input.shape as Record<string, z.ZodType>) : {};
  const picked: Record<string, unknown> = {};
  for (const name of source.dependsOn ?? []) {
    if (input[name] === undefined) continue;
    const parsed = (shape[name] ?? z.unknown()).safeParse(input[name]);
    if (!parsed.success) {
      const issues = fieldIssues(parsed.error, `input.${name}`);
      throw new InputError(`Invalid input for the options of ${step.id}: ${listIssues(issues)}.`, issues);
    }
    picked[name] = parsed.data;
  }
  return picked;
}

/** The choices of an account field (a custom dropdown or multiselect) by its property name; undefined when none. */
async function accountChoices(
  runtime: OptionsRuntime,
  step: AnyStep,
  field: string,
  call: OptionsCall,
): Promise<OptionItem[] | undefined> {
  const fields = await accountFieldsOf(runtime, step, call.connection!, call.signal);
  return fields.find((candidate) => candidate.name === field)?.choices;
}

/** At most MAX_OPTION_ITEMS, whatever the resolver returned. */
function capped(page: z.output<ReturnType<typeof OptionsPage>>): OptionsAnswer {
  const truncated = page.items.length > MAX_OPTION_ITEMS;
  return {
    items: truncated ? page.items.slice(0, MAX_OPTION_ITEMS) : page.items,
    ...(page.next_cursor ? { next_cursor: page.next_cursor } : {}),
    truncated,
  };
}

/**
 * The choices of one field: a closed list answered here, else the source's
 * resolver run through the step pipeline and its answer cached for
 * OPTIONS_CACHE_TTL_MS per tenant, connection, step, field, query, cursor,
 * depended-on input and constraints. Bad arguments send nothing.
 * @throws InputError (no such field, bad query or input, no connection), and whatever the pipeline throws.
 */
export async function resolveOptions(
  runtime: OptionsRuntime,
  step: AnyStep,
  field: string,
  call: OptionsCall,
): Promise<OptionsAnswer> {
  const checked = CallShape().safeParse({ query: call.query, cursor: call.cursor, input: call.input });
  if (!checked.success) {
    const issues = fieldIssues(checked.error, '');
    throw new InputError(`Invalid options call for ${step.id}: ${listIssues(issues)}.`, issues);
  }
  const { query, cursor } = checked.data;
  if (!step.options?.[field as never] && step.accountSchema && call.connection !== undefined) {
    const choices = await accountChoices(runtime, step, field, call);
    if (choices) return { ...pageOfFixed(choices, { query, cursor }), truncated: false };
  }
  const source = sourceOf(step, field);
  const input = dependedInput(step, source, checked.data.input ?? {});
  if (source.fixed) return { ...pageOfFixed(source.fixed, { query, cursor }), truncated: false };
  const { connection } = call;
  if (connection === undefined) {
    throw new InputError(`The options of ${step.id} ${field} come from the account: name a connection.`, [
      { path: 'connection', message: 'required' },
    ]);
  }
  const key = answerKey(runtime, [
    'options',
    connectionIdOf(connection),
    step.id,
    field,
    query,
    cursor,
    input,
    // A source offers only what the step's constraints allow: a narrower caller never reads a wider answer.
    call.constraints ?? null,
  ]);
  return runtime.answers.get(key, OPTIONS_CACHE_TTL_MS, async () =>
    capped(
      await providerRead(runtime, step, `options of ${field}`, {
        output: OptionsPage(),
        connection,
        signal: call.signal,
        constraints: call.constraints,
        load: (context) => source.load({ query, cursor, input }, context),
      }),
    ),
  );
}
