import * as z from 'zod';
import type { Connection } from '../model/connection.js';
import { accountFieldsOf, accountInputSchema } from '../runtime/account-input.js';
import type { OptionsRuntime } from '../runtime/provider-read.js';
import type { AnyStep } from '../step/define-step.js';
import type { OptionsSource } from '../step/options-source.js';

/** The JSON Schema keyword that marks a field with options, and what it holds. */
export const OPTIONS_KEYWORD = 'x-toolsteps-options';

/** What a form needs to know to fetch a field's choices, published in the field's JSON Schema under OPTIONS_KEYWORD. */
export interface OptionsMark {
  dependsOn: string[];
  searchable: boolean;
  /** True for a closed list: answered without a connection. */
  fixed: boolean;
}

/** The fields of a step that have options, with their marks. */
export function optionsMarks(step: AnyStep): Record<string, OptionsMark> {
  const marks: Record<string, OptionsMark> = {};
  for (const [field, source] of Object.entries((step.options ?? {}) as Record<string, OptionsSource>)) {
    marks[field] = {
      dependsOn: [...(source.dependsOn ?? [])],
      searchable: source.searchable ?? false,
      fixed: Boolean(source.fixed),
    };
  }
  return marks;
}

/**
 * The step's input JSON Schema with each field that has options marked
 * (`"x-toolsteps-options": { "dependsOn": [...], "searchable", "fixed" }`),
 * so a form knows which fields to fill from `options` and when to ask again.
 */
export function markOptions<Schema extends Record<string, unknown>>(schema: Schema, step: AnyStep): Schema {
  const marks = Object.entries(optionsMarks(step));
  const properties = schema.properties as Record<string, Record<string, unknown>> | undefined;
  if (!marks.length || !properties) return schema;
  const marked = { ...properties };
  for (const [field, mark] of marks) {
    if (marked[field]) marked[field] = { ...marked[field], [OPTIONS_KEYWORD]: mark };
  }
  return { ...schema, properties: marked };
}

/** zod's JSON Schema of an input, as the manifest writes it. */
export function inputJsonSchema(schema: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
}

/** A step's input as one account sees it. */
export interface DescribedInput {
  /** JSON Schema 2020-12 of the input, fields with options marked. */
  input: Record<string, unknown>;
  /** The fields that have options. */
  options: Record<string, OptionsMark>;
  /** The account fields offered as named properties (empty without a connection). */
  accountFields: { name: string; id: string | number; title: string; type: string }[];
}

/**
 * The step's input schema, specialised to the connection's account when one
 * is given (its custom fields as named, typed properties), else generic.
 */
export async function describeInput(
  step: AnyStep,
  account?: { runtime: OptionsRuntime; connection: string | Connection; signal?: AbortSignal },
): Promise<DescribedInput> {
  if (!account) return structuredClone(genericDescription(step));
  const fields = await accountFieldsOf(account.runtime, step, account.connection, account.signal);
  return {
    input: markOptions(inputJsonSchema(accountInputSchema(step, fields)), step),
    options: optionsMarks(step),
    accountFields: fields.map(({ name, id, title, type }) => ({ name, id, title, type })),
  };
}

/**
 * Each step's description without an account, made once: a step's schema
 * does not change, and making its JSON Schema costs up to a millisecond
 * (the builder's forms and the MCP catalogue ask for it on every open).
 * Callers get a copy, so one that edits what it got changes no other's.
 */
const generic = new WeakMap<AnyStep, DescribedInput>();

function genericDescription(step: AnyStep): DescribedInput {
  let found = generic.get(step);
  if (!found) {
    found = {
      input: markOptions(inputJsonSchema(accountInputSchema(step, [])), step),
      options: optionsMarks(step),
      accountFields: [],
    };
    generic.set(step, found);
  }
  return found;
}
