import type { JsonSchema } from '../client/api-types.js';

/**
 * A step's input schema (JSON Schema 2020-12, as zod's `toJSONSchema` and the
 * per-account describe write it) read as the fields a form shows. Only what
 * a form needs is read; anything else becomes a JSON text field, so no
 * input is ever out of reach.
 */
export type FieldKind =
  | 'text'
  | 'long-text'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'enum'
  | 'multi'
  | 'list'
  | 'json';

export interface FieldSpec {
  name: string;
  title: string;
  description: string | undefined;
  required: boolean;
  kind: FieldKind;
  format: string | undefined;
  choices: readonly (string | number)[];
  /**
   * The field's choices come from the API's options (`x-toolsteps-options`): the fields
   * they depend on, whether they can be searched, and whether they are a closed list
   * (answered without an account).
   */
  options: { dependsOn: readonly string[]; searchable: boolean; fixed: boolean } | undefined;
  /** The value the step takes when the field is left empty (the schema's `default`), if it names one. */
  defaultValue: unknown;
  /**
   * What a person reads for each choice: the schema's `x-toolsteps-labels` (the provider's own
   * words and case, as its events write them), else the value with its underscores as spaces.
   */
  labelOf(value: string | number): string;
  schema: JsonSchema;
}

type Schema = JsonSchema & {
  type?: string | string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  title?: string;
  description?: string;
  format?: string;
  maxLength?: number;
};

/** `assignee_id` -> "Assignee id": the field's title when its schema has none. */
export const titleOf = (name: string) => {
  const words = name
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** `event_webhook` -> "Event webhook": a value's words, for a choice the schema gives no label. */
const wordsOf = (value: string | number) =>
  typeof value === 'number' || !/_/.test(value) ? String(value) : titleOf(value);

/** The labels a schema (or its items' schema) gives its choices, by value. */
function labelsOf(schema: Schema): Record<string, string> {
  const own = (schema['x-toolsteps-labels'] ?? schema.items?.['x-toolsteps-labels']) as
    | Record<string, string>
    | undefined;
  if (own) return own;
  for (const branch of [...branches(schema), ...branches(schema.items ?? {})]) {
    const found = branch['x-toolsteps-labels'] as Record<string, string> | undefined;
    if (found) return found;
  }
  return {};
}

/** The branches of a union without its `null`: `string | null` is an optional string to a form. */
function branches(schema: Schema): Schema[] {
  const union = schema.anyOf ?? schema.oneOf;
  if (!union) return [schema];
  return union.flatMap(branches).filter((branch) => branch.type !== 'null');
}

const typesOf = (schema: Schema) =>
  (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []).filter((t) => t !== 'null');

function enumOf(schema: Schema): (string | number)[] | undefined {
  const all = branches(schema);
  const values = all.flatMap((branch) =>
    branch.enum ? branch.enum : branch.const !== undefined ? [branch.const] : [undefined],
  );
  if (values.some((value) => typeof value !== 'string' && typeof value !== 'number')) return undefined;
  return values as (string | number)[];
}

function kindOf(schema: Schema): FieldKind {
  if (enumOf(schema)) return 'enum';
  const all = branches(schema);
  const types = new Set(all.flatMap(typesOf));
  if (types.size === 1 && types.has('boolean')) return 'boolean';
  if (types.size === 1 && types.has('integer')) return 'integer';
  if (types.size === 1 && types.has('number')) return 'number';
  if (types.size === 1 && types.has('array')) {
    const items = all[0]?.items ?? {};
    if (enumOf(items)) return 'multi';
    const itemTypes = new Set(branches(items).flatMap(typesOf));
    return [...itemTypes].every((t) => t === 'string' || t === 'integer' || t === 'number') && itemTypes.size
      ? 'list'
      : 'json';
  }
  // A string, or an id that is a number or a text (an assignee: user id or email): typed as text.
  if ([...types].every((t) => t === 'string' || t === 'integer' || t === 'number') && types.size) {
    const long = all.some((branch) => (branch.maxLength ?? 0) > 1000);
    return long ? 'long-text' : 'text';
  }
  return 'json';
}

/** The fields of an object schema, required ones first in their schema order. */
export function fieldsOf(input: JsonSchema): FieldSpec[] {
  const schema = input as Schema;
  const required = new Set(schema.required ?? []);
  const fields = Object.entries(schema.properties ?? {}).map(([name, property]): FieldSpec => {
    const marker = property['x-toolsteps-options'] as
      | { dependsOn?: string[]; searchable?: boolean; fixed?: boolean }
      | undefined;
    const kind = kindOf(property);
    const format = branches(property).find((branch) => branch.format)?.format;
    const labels = labelsOf(property);
    return {
      name,
      title: property.title ?? titleOf(name),
      description: property.description,
      required: required.has(name),
      kind,
      format,
      choices:
        kind === 'enum'
          ? (enumOf(property) ?? [])
          : kind === 'multi'
            ? (enumOf(property.items ?? {}) ?? [])
            : [],
      options: marker
        ? {
            dependsOn: marker.dependsOn ?? [],
            searchable: marker.searchable ?? false,
            fixed: marker.fixed ?? false,
          }
        : undefined,
      defaultValue: property.default,
      labelOf: (value) => labels[String(value)] ?? wordsOf(value),
      schema: property,
    };
  });
  return [...fields.filter((f) => f.required), ...fields.filter((f) => !f.required)];
}

/** A value shaped like `schema`, for a tree to click before the step has run once. */
export function sampleOf(input: JsonSchema, depth = 0): unknown {
  const schema = branches(input as Schema)[0] ?? {};
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const examples = schema.examples as unknown[] | undefined;
  if (examples?.length) return examples[0];
  const type = typesOf(schema)[0];
  if (depth > 6) return null;
  if (type === 'object' || schema.properties) {
    return Object.fromEntries(
      Object.entries(schema.properties ?? {}).map(([name, property]) => [
        name,
        sampleOf(property, depth + 1),
      ]),
    );
  }
  if (type === 'array') return [sampleOf(schema.items ?? {}, depth + 1)];
  if (type === 'integer' || type === 'number') return 0;
  if (type === 'boolean') return false;
  if (type === 'string') return schema.format === 'date-time' ? '2026-01-01T00:00:00Z' : '';
  return null;
}
