import { type JsonSchema, type ObjectJsonSchema, propertiesOf, requiredOf } from './json-schema.js';

/**
 * The keywords OpenAI's strict mode (Structured Outputs) is sure to accept.
 * Everything else (lengths, patterns, formats, bounds, defaults) is dropped
 * from the exported schema only: zod still checks the input before anything
 * is sent, so a model that breaks a dropped rule gets an InputError back.
 */
const KEPT_KEYWORDS = new Set([
  'type',
  'description',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
]);

/** Thrown inside the conversion when a schema has no strict form (free-form values, maps, tuples, allOf). */
class NoStrictForm extends Error {}

function admitsNull(schema: JsonSchema): boolean {
  const type = schema.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  return Array.isArray(schema.anyOf) && (schema.anyOf as JsonSchema[]).some(admitsNull);
}

/** An optional property as strict mode wants it: required, and nullable. */
function nullable(schema: JsonSchema): JsonSchema {
  if (admitsNull(schema)) return schema;
  const { description, ...rest } = schema;
  const wrapped: JsonSchema = { anyOf: [rest, { type: 'null' }] };
  if (description !== undefined) wrapped.description = description;
  return wrapped;
}

function strictObject(schema: JsonSchema): JsonSchema {
  const properties = propertiesOf(schema);
  const extra = schema.additionalProperties;
  // A map (`z.record`) names no properties and takes any key: strict mode cannot say that.
  if (Object.keys(properties).length === 0 && extra !== undefined && extra !== false)
    throw new NoStrictForm();
  const { anyOf: _rule, ...shape } = keptKeywords(schema);
  // "At least one of these fields" (`anyOf` of `required` lists) is a rule, not a shape: zod keeps it.
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (alternatives && !alternatives.every(onlyRequiredList)) throw new NoStrictForm();
  const required = new Set(requiredOf(schema));
  const strictProperties: Record<string, JsonSchema> = {};
  for (const [key, property] of Object.entries(properties)) {
    const converted = strictNode(property);
    strictProperties[key] = required.has(key) ? converted : nullable(converted);
  }
  return {
    ...shape,
    type: 'object',
    properties: strictProperties,
    required: Object.keys(strictProperties),
    additionalProperties: false,
  };
}

function onlyRequiredList(schema: JsonSchema): boolean {
  return Object.keys(schema).every((key) => key === 'required');
}

function keptKeywords(schema: JsonSchema): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => KEPT_KEYWORDS.has(key)));
}

/** Only constraints that are dropped anyway (zod's way of stacking two patterns): nothing left to express. */
function onlyDroppedKeywords(schema: JsonSchema): boolean {
  return Object.keys(schema).every((key) => !KEPT_KEYWORDS.has(key) && key !== 'allOf' && key !== '$ref');
}

/**
 * A free-form value (`z.unknown()`, such as a custom field's value) has no
 * strict form; it is offered as any scalar or list of scalars, which covers
 * what such fields hold. Zod still accepts the rest from other clients.
 */
const SCALAR: JsonSchema[] = [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }];
const FREE_FORM: JsonSchema = {
  anyOf: [...SCALAR, { type: 'null' }, { type: 'array', items: { anyOf: SCALAR } }],
};

function strictNode(schema: JsonSchema): JsonSchema {
  const allOf = schema.allOf as JsonSchema[] | undefined;
  if (allOf && !allOf.every(onlyDroppedKeywords)) throw new NoStrictForm();
  if (schema.not || schema.prefixItems || schema.$ref) throw new NoStrictForm();
  if (schema.type === 'object') return strictObject(schema);
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (branches) {
    return { ...keptKeywords(schema), anyOf: branches.map(strictNode) };
  }
  const type = schema.type;
  if (type === undefined && schema.enum === undefined && schema.const === undefined) {
    if (Object.keys(schema).every((key) => key === 'description'))
      return { ...FREE_FORM, ...keptKeywords(schema) };
    throw new NoStrictForm();
  }
  if (type === 'array') {
    if (typeof schema.items !== 'object' || schema.items === null) throw new NoStrictForm();
    return { ...keptKeywords(schema), items: strictNode(schema.items as JsonSchema) };
  }
  return keptKeywords(schema);
}

/**
 * The input schema under OpenAI's strict rules: every property required,
 * optional ones as a union with null, `additionalProperties: false`, only
 * supported keywords. Undefined when the schema has no strict form (a
 * free-form value such as an API Call body): that tool is exported with
 * `strict: false` and its full schema.
 */
export function toStrictSchema(schema: ObjectJsonSchema): ObjectJsonSchema | undefined {
  try {
    return strictObject(schema) as ObjectJsonSchema;
  } catch (error) {
    if (error instanceof NoStrictForm) return undefined;
    throw error;
  }
}
