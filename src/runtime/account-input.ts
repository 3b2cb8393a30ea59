import * as z from 'zod';
import { fieldIssues, listIssues } from '../errors/field-issues.js';
import { InputError } from '../errors/index.js';
import type { Connection } from '../model/connection.js';
import {
  type AccountField,
  AccountFields,
  type AccountSchemaSource,
  accountShape,
} from '../step/account-fields.js';
import type { AnyStep } from '../step/define-step.js';
import { inputFieldNames } from '../step/options-declaration.js';
import { OPTIONS_CACHE_TTL_MS } from '../step/options-source.js';
import { isPlainRecord } from '../values/plain-record.js';
import { editDistance } from '../values/unknown-field-suggestion.js';
import { answerKey, connectionIdOf, type OptionsRuntime, providerRead } from './provider-read.js';

/** Whether `name` is at most one edit from one of `own`, ignoring case and separators. */
function isTypoOf(name: string, own: readonly string[]): boolean {
  const normalize = (text: string) => text.toLowerCase().replace(/[-_\s]/g, '');
  return own.some((field) => editDistance(normalize(name), normalize(field)) <= 1);
}

/** The account's fields for a step, read through the pipeline and cached like options. */
export async function accountFieldsOf(
  runtime: OptionsRuntime,
  step: AnyStep,
  connection: string | Connection,
  signal?: AbortSignal,
): Promise<AccountField[]> {
  const source = step.accountSchema as AccountSchemaSource | undefined;
  if (!source) return [];
  const key = answerKey(runtime, ['account', connectionIdOf(connection), step.id]);
  const answer = await runtime.answers.get(key, OPTIONS_CACHE_TTL_MS, () =>
    providerRead(runtime, step, 'account fields', {
      output: AccountFields(),
      connection,
      signal,
      load: (context) => source.load(context),
    }),
  );
  return answer.fields;
}

/** The step's input schema with the account's fields as named, typed properties. */
export function accountInputSchema(step: AnyStep, fields: readonly AccountField[]): z.ZodType {
  const own = inputFieldNames(step.input);
  if (!own || !fields.length) return step.input;
  return (step.input as z.ZodObject).safeExtend(accountShape(fields, own));
}

/**
 * The input with its named account fields checked against the account and
 * mapped back to the step's generic input (`custom_fields: [{id, value}]`).
 * An input that names no account field is returned as it came, without a
 * request; one whose value does not fit its field is an InputError, and
 * nothing is sent.
 */
export async function genericInput(
  runtime: OptionsRuntime,
  step: AnyStep,
  connection: string | Connection,
  input: unknown,
  signal?: AbortSignal,
): Promise<unknown> {
  const source = step.accountSchema as AccountSchemaSource | undefined;
  const own = inputFieldNames(step.input);
  if (!source || !own || !isPlainRecord(input)) return input;
  const named = Object.keys(input).filter((name) => !own.includes(name));
  // A name one typo from one of the step's own fields (`priorty`) is taken for a typo, not an
  // account field: the step's schema refuses it with its suggestion, and nothing is sent to find out.
  if (!named.length || named.some((name) => isTypoOf(name, own))) return input;
  const fields = await accountFieldsOf(runtime, step, connection, signal);
  // Unknown names are left in the input: the step's own schema refuses them, with its suggestions.
  const shape = accountShape(fields, own);
  const values: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input)) (shape[name] ? values : rest)[name] = value;
  if (!Object.keys(values).length) return input;
  const parsed = z.object(shape).safeParse(values);
  if (!parsed.success) {
    const issues = fieldIssues(parsed.error);
    throw new InputError(`Invalid input for ${step.id}: ${listIssues(issues)}.`, issues);
  }
  const given = Object.entries(parsed.data)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => ({ field: fields.find((field) => field.name === name)!, value }));
  return { ...rest, ...source.toInput(given, rest) };
}
