import * as z from 'zod';

/** A JSON Schema document as the agent runtimes take it: plain JSON. */
export type JsonSchema = { [key: string]: unknown };

/** A schema whose root is an object, as every tool-calling API requires of a tool's input. */
export type ObjectJsonSchema = JsonSchema & { type: 'object' };

/**
 * A zod schema as JSON Schema, with zod's own converter (the one the
 * manifest uses). `$schema` is left off: tool APIs take the schema inline and
 * some validators (Ajv's default draft) refuse the 2020-12 meta-schema URI.
 * A root that is not an object is refused here, so no tool is ever offered
 * with an empty or non-object schema.
 */
export function objectJsonSchema(schema: z.ZodType, io: 'input' | 'output', owner: string): ObjectJsonSchema {
  const { $schema: _dropped, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  if (json.type !== 'object') {
    throw new Error(`The ${io} schema of ${owner} is not an object schema; a tool needs one.`);
  }
  return json as ObjectJsonSchema;
}

export function propertiesOf(schema: JsonSchema): Record<string, JsonSchema> {
  const properties = schema.properties;
  return typeof properties === 'object' && properties !== null
    ? (properties as Record<string, JsonSchema>)
    : {};
}

export function requiredOf(schema: JsonSchema): string[] {
  return Array.isArray(schema.required) ? (schema.required as string[]) : [];
}
