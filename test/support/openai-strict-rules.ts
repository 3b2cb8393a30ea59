/**
 * OpenAI's strict-mode rules for a function's parameters (Structured
 * Outputs), written out independently of the converter under test: the
 * root is an object; every object lists all its properties as required and
 * sets `additionalProperties: false`; every schema names a type (or is an
 * `anyOf`, `enum` or `const`); only supported keywords appear; at most 10
 * levels of nesting and 5,000 properties. Returns every broken rule, with its path.
 */
const ALLOWED = new Set([
  'type',
  'description',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  '$defs',
  '$ref',
  'title',
]);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

type Schema = Record<string, unknown>;

export function strictRuleViolations(root: Schema): string[] {
  const problems: string[] = [];
  let properties = 0;
  if (root.type !== 'object') problems.push('$: the root must be an object');
  if (root.anyOf) problems.push('$: the root must not be anyOf');
  const visit = (schema: Schema, path: string, depth: number) => {
    if (depth > 10) problems.push(`${path}: nested deeper than 10 levels`);
    for (const key of Object.keys(schema)) {
      if (!ALLOWED.has(key)) problems.push(`${path}: unsupported keyword ${key}`);
    }
    const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
    for (const type of types)
      if (!TYPES.has(type as string)) problems.push(`${path}: unknown type ${String(type)}`);
    if (!types.length && !schema.anyOf && !schema.enum && !('const' in schema) && !schema.$ref) {
      problems.push(`${path}: names no type`);
    }
    if (types.includes('object')) {
      const own = (schema.properties ?? {}) as Record<string, Schema>;
      properties += Object.keys(own).length;
      if (schema.additionalProperties !== false) problems.push(`${path}: additionalProperties must be false`);
      const required = new Set((schema.required ?? []) as string[]);
      for (const key of Object.keys(own)) {
        if (!required.has(key)) problems.push(`${path}.${key}: not required`);
        visit(own[key] as Schema, `${path}.${key}`, depth + 1);
      }
    }
    if (types.includes('array')) {
      if (typeof schema.items !== 'object') problems.push(`${path}: an array needs items`);
      else visit(schema.items as Schema, `${path}[]`, depth + 1);
    }
    for (const [at, branch] of ((schema.anyOf ?? []) as Schema[]).entries()) {
      visit(branch, `${path}|${at}`, depth);
    }
  };
  visit(root, '$', 0);
  if (properties > 5000) problems.push(`$: ${properties} properties, more than 5,000`);
  return problems;
}
