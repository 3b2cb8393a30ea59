/**
 * JSONPath (RFC 9535) of a value in a sample: `$.ticket.id`, `$.tags[0]`,
 * `$['odd key']`. Member names that are not plain identifiers are quoted,
 * so a path the kit writes is one the server's json-p3 reads.
 */
export type PathSegment = string | number;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function jsonPathOf(segments: readonly PathSegment[]): string {
  return `$${segments
    .map((segment) =>
      typeof segment === 'number'
        ? `[${segment}]`
        : IDENTIFIER.test(segment)
          ? `.${segment}`
          : `['${segment.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`,
    )
    .join('')}`;
}

/** A variable name for a path: its last two member names, `ticket_id` for `$.ticket.id`. */
export function variableNameFor(segments: readonly PathSegment[]): string {
  const names = segments.filter((segment): segment is string => typeof segment === 'string');
  const name = names
    .slice(-2)
    .join('_')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return name || 'value';
}
