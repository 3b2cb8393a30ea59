/** A JSON Schema node, as far as a readable summary reads it. */
interface SchemaNode {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  items?: SchemaNode;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
}

/** `string`, `low | normal | high`, `list of string`, `integer 1-100`, `object`, `a or b`. */
export function typeOf(node: SchemaNode): string {
  if (node.enum) return node.enum.map((value) => JSON.stringify(value).replace(/^"|"$/g, '')).join(' | ');
  if (node.const !== undefined) return JSON.stringify(node.const);
  const union = node.anyOf ?? node.oneOf;
  if (union) {
    const kinds = union.filter((member) => member.type !== 'null').map(typeOf);
    return [...new Set(kinds)].join(' or ') + (kinds.length < union.length ? ' (or null)' : '');
  }
  if (node.type === 'array') return `list of ${node.items ? typeOf(node.items) : 'values'}`;
  const type = Array.isArray(node.type)
    ? node.type.filter((t) => t !== 'null').join(' or ')
    : (node.type ?? 'any');
  if (type !== 'integer' && type !== 'number') return type;
  // zod writes the safe-integer bounds on every int; only a bound a person chose is worth showing.
  const chosen = (bound: number | undefined) =>
    bound !== undefined && Math.abs(bound) < 2 ** 40 ? bound : undefined;
  const [min, max] = [chosen(node.minimum), chosen(node.maximum)];
  if (min !== undefined && max !== undefined) return `${type} ${min}-${max}`;
  if (min !== undefined) return `${type} >= ${min}`;
  return max !== undefined ? `${type} <= ${max}` : type;
}

/**
 * The inputs of a step as lines for people: name, type, required or the
 * default, and the description; an object's fields follow indented, one
 * level deep (the full schema is in `describe --json`).
 */
export function fieldLines(schema: SchemaNode, indent = '  ', depth = 0): string[] {
  const required = new Set(schema.required ?? []);
  const lines: string[] = [];
  for (const [name, node] of Object.entries(schema.properties ?? {})) {
    const need =
      node.default !== undefined
        ? `default ${JSON.stringify(node.default)}`
        : required.has(name)
          ? 'required'
          : 'optional';
    // A field with options says so: `toolsteps options <step> <field>` lists its choices.
    const choices = (node as Record<string, unknown>)['x-toolsteps-options'] ? ', has options' : '';
    lines.push(
      `${indent}${name} (${typeOf(node)}, ${need}${choices})${node.description ? `: ${node.description}` : ''}`,
    );
    const inner = node.type === 'array' ? node.items : node;
    if (depth < 1 && inner?.properties) lines.push(...fieldLines(inner, `${indent}    `, depth + 1));
  }
  return lines;
}
