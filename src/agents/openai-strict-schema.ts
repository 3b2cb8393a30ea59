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
  const required = new Set(requiredOf(schema));
  const strictProperties: Record<string, JsonSchema> = {};
  for (const [key, property] of Object.entries(properties)) {
    const converted = strictNode(property);
    strictProperties[key] = required.has(key) ? converted : nullable(converted);
  }
  return {
    ...keptKeywords(schema),
    type: 'object',
    properties: strictProperties,
    required: Object.keys(strictProperties),
    additionalProperties: false,
  };
}

function keptKeywords(schema: JsonSchema): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => KEPT_KEYWORDS.has(key)));
}

function strictNode(schema: JsonSchema): JsonSchema {
  if (schema.allOf || schema.not || schema.prefixItems || schema.$ref) throw new NoStrictForm();
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (branches) {
    const { oneOf: _oneOf, ...rest } = keptKeywords(schema);
    return { ...rest, anyOf: branches.map(strictNode) };
  }
  const type = schema.type;
  if (type === undefined && schema.enum === undefined && schema.const === undefined) throw new NoStrictForm();
  if (type === 'object') return strictObject(schema);
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
