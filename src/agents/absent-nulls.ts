import { type JsonSchema, propertiesOf, requiredOf } from './json-schema.js';

/** Whether a schema admits `null` (a `type` that names it, a null `const`, or an `anyOf`/`oneOf` branch that does). */
function admitsNull(schema: JsonSchema | undefined): boolean {
  if (!schema || Object.keys(schema).length === 0) return true;
  const type = schema.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if ('const' in schema && schema.const === null) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  const branches = [...((schema.anyOf as JsonSchema[]) ?? []), ...((schema.oneOf as JsonSchema[]) ?? [])];
  return branches.some(admitsNull);
}

/**
 * A copy of `value` without the nulls that stand for "absent": a model held
 * to OpenAI's strict rules must send every property, and sends `null` for an
 * optional one it means to leave out. A null is dropped only where the field
 * is optional and its schema does not take null itself, so a null that means
 * something (clearing a custom field) reaches validation untouched. Nested
 * objects and array items are walked the same way.
 */
export function stripAbsentNulls(value: unknown, schema: JsonSchema | undefined): unknown {
  if (!schema || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const items = schema.items as JsonSchema | undefined;
    return value.map((item) => stripAbsentNulls(item, items));
  }
  const properties = propertiesOf(schema);
  const required = new Set(requiredOf(schema));
  const result: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    const property = properties[key];
    if (entry === null && property && !required.has(key) && !admitsNull(property)) continue;
    result[key] = stripAbsentNulls(entry, property);
  }
  return result;
}
