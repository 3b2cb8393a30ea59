/**
 * The JSONPath expressions most mappings are: member names and `[*]`
 * wildcards from the root (`$.next_cursor`, `$.tickets[*].id`). These are
 * read here by plain property access with RFC 9535's rules, at a tenth of
 * the cost of the general evaluator, which is not even loaded for them: every
 * string of this form is a valid RFC 9535 query (member-name-shorthand and
 * wildcard segments, §2.5.1), singular exactly when it has no wildcard
 * (§2.3.5.1). test/mapping-fast-path holds the two to the same answers and
 * the same singularity.
 */
const MEMBER_PATH = /^\$(?:\.[A-Za-z_][A-Za-z0-9_]*|\[\*\])*$/;
const SEGMENT = /\.([A-Za-z_][A-Za-z0-9_]*)|\[\*\]/g;

/** One segment: a member name, or `undefined` for a wildcard. */
type Segment = string | undefined;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every value the segments select from `root`, in document order (RFC 9535 §2.5). */
function select(root: unknown, segments: readonly Segment[]): unknown[] {
  let nodes: unknown[] = [root];
  for (const name of segments) {
    const next: unknown[] = [];
    for (const node of nodes) {
      if (name === undefined) {
        // A wildcard selects an array's elements or an object's member values.
        if (Array.isArray(node)) for (const element of node) next.push(element);
        else if (isObject(node)) for (const key in node) if (Object.hasOwn(node, key)) next.push(node[key]);
      } else if (isObject(node) && Object.hasOwn(node, name)) {
        // A name selects only an object's member: never an array's property, never an inherited one.
        next.push(node[name]);
      }
    }
    nodes = next;
  }
  return nodes;
}

/** A member path read by property access. */
export interface MemberPath {
  /** Every value the path selects from an output, in order. */
  values: (root: unknown) => unknown[];
  /** Names at most one node: no wildcard in it. */
  singular: boolean;
}

/** `expression` as a member path when it is only member names and wildcards; else undefined. */
export function memberPath(expression: string): MemberPath | undefined {
  if (!MEMBER_PATH.test(expression)) return undefined;
  const segments = [...expression.matchAll(SEGMENT)].map((match) => match[1]);
  return { values: (root) => select(root, segments), singular: !segments.includes(undefined) };
}
