import * as z from 'zod';
import { builtOnce } from '../values/built-once.js';
import type { OptionsContext } from './options-source.js';

/**
 * The kinds of per-account field a step can offer as a named, typed input
 * property. Like every schema here, built on its first call and kept
 * (`builtOnce`): importing the library builds none (issue 37).
 */
export const AccountFieldType = builtOnce(() =>
  z.enum(['text', 'number', 'integer', 'checkbox', 'date', 'dropdown', 'multiselect']),
);

/**
 * One field the connected account defines (a ticketing custom field), as a
 * step's `accountSchema.load` reads it from the provider: plain data, so it
 * is validated, cached and turned into a zod property here, the same way for
 * every step.
 */
export const AccountField = builtOnce(() =>
  z.object({
    /** The input property it becomes: snake_case, not one of the step's own fields. */
    name: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'a snake_case property name'),
    /** The provider's own id for the field (what the invocation maps back to). */
    id: z.union([z.string().min(1).max(200), z.number().int()]),
    title: z.string().max(200),
    type: AccountFieldType(),
    /** The values a dropdown or multiselect takes, with what a person reads. */
    choices: z
      .array(z.object({ value: z.string().min(1).max(200), label: z.string().max(200) }))
      .max(1000)
      .optional(),
  }),
);
export type AccountField = z.output<ReturnType<typeof AccountField>>;

/** What `accountSchema.load` answers: at most 500 fields, a bound on what one schema can hold. */
export const AccountFields = builtOnce(() => z.object({ fields: z.array(AccountField()).max(500) }));

/** A named field's value, as the caller gave it and the field's schema accepted it. */
export interface AccountValue {
  field: AccountField;
  value: unknown;
}

/**
 * A step whose input depends on the account (custom fields) declares how to
 * read the account's fields and how named values map back to its generic
 * input. The runtime loads the fields through the step pipeline (connection,
 * rate gate, retries, deadlines, redaction), caches them, offers them as
 * typed properties (`registry.describe` with a connection), and on invoke
 * checks named values against them before anything is sent.
 */
export interface AccountSchemaSource<Input = Record<string, unknown>> {
  /** Reads the account's own fields from the provider; validated and cached by the runtime, so a handler returns them raw. */
  load(context: OptionsContext): Promise<{ fields: z.input<ReturnType<typeof AccountField>>[] }>;
  /** The generic input's fields for these named values (e.g. `custom_fields: [{id, value}]`), merged over the rest. */
  toInput(values: AccountValue[], input: Partial<Input>): Partial<Input>;
}

/** YYYY-MM-DD, the form a date field takes. */
const IsoDate = builtOnce(() => z.iso.date());

/** The zod property of one account field: the field's type, and for choices only its values. */
export function accountFieldSchema(field: AccountField): z.ZodType {
  const described = (schema: z.ZodType) => schema.describe(`${field.title} (${field.type}, account field).`);
  const values = (field.choices ?? []).map((choice) => choice.value);
  switch (field.type) {
    case 'text':
      return described(z.string().max(65_000).nullable());
    case 'number':
      return described(z.number().nullable());
    case 'integer':
      return described(z.number().int().nullable());
    case 'checkbox':
      return described(z.boolean());
    case 'date':
      return described(IsoDate().nullable());
    case 'dropdown':
      return described(values.length ? z.enum(values as [string, ...string[]]).nullable() : z.null());
    case 'multiselect':
      return described(
        z.array(values.length ? z.enum(values as [string, ...string[]]) : z.never()).max(1000),
      );
  }
}

/** The named properties of an account's fields, leaving out any whose name the step's own input already has. */
export function accountShape(
  fields: readonly AccountField[],
  own: readonly string[],
): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const field of fields) {
    if (own.includes(field.name) || field.name in shape) continue;
    shape[field.name] = accountFieldSchema(field).optional();
  }
  return shape;
}
