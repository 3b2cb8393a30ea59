import { type JsonValue, query } from 'jsonpath-rfc9535';
import parseJsonPath from 'jsonpath-rfc9535/parser';
import { type FieldIssue, InputError } from './errors.js';

/** Variable name to RFC 9535 JSONPath expression over a step's output. */
export type VariableMapping = Record<string, string>;

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

interface CompiledVariable {
  expression: string;
  /** A singular query names at most one node (RFC 9535 §2.3.5.1): its variable is a value, not a list. */
  singular: boolean;
}

/** Parsed once per expression: every invocation of a step reuses its default mapping. */
const singularCache = new Map<string, boolean>();
const SINGULAR_CACHE_LIMIT = 1000;

function isSingular(expression: string): boolean {
  const cached = singularCache.get(expression);
  if (cached !== undefined) return cached;
  const singular = computeSingular(expression);
  if (singularCache.size >= SINGULAR_CACHE_LIMIT) singularCache.clear();
  singularCache.set(expression, singular);
  return singular;
}

function computeSingular(expression: string): boolean {
  const ast = parseJsonPath(expression);
  return ast.segments.every((segment) => {
    if (segment.type !== 'ChildSegment') return false;
    const node = segment.node;
    if (node.type === 'MemberNameShorthand') return true;
    if (node.type === 'WildcardSelector') return false;
    return (
      node.selectors.length === 1 &&
      (node.selectors[0]?.type === 'NameSelector' || node.selectors[0]?.type === 'IndexSelector')
    );
  });
}

/**
 * Checks every name and expression before anything is sent, so a typo in a
 * mapping fails the invocation up front rather than after a paid call.
 */
export function compileMapping(mapping: VariableMapping, field = 'variables'): Map<string, CompiledVariable> {
  const compiled = new Map<string, CompiledVariable>();
  const issues: FieldIssue[] = [];
  for (const [name, expression] of Object.entries(mapping)) {
    if (!VARIABLE_NAME.test(name)) {
      issues.push({
        path: `${field}.${name}`,
        message: 'variable names are letters, digits and _, not starting with a digit',
      });
      continue;
    }
    try {
      compiled.set(name, { expression, singular: isSingular(expression) });
    } catch (error) {
      issues.push({
        path: `${field}.${name}`,
        message: `not a valid RFC 9535 JSONPath: ${(error as Error).message.slice(0, 200)}`,
      });
    }
  }
  if (issues.length)
    throw new InputError(`Invalid variable mapping: ${issues.map((i) => i.path).join(', ')}.`, issues);
  return compiled;
}

/**
 * Evaluates a mapping over an output. A singular path gives its value, or
 * null when absent; any other path gives the list of every match.
 */
export function mapVariables(output: unknown, mapping: VariableMapping): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  for (const [name, variable] of compileMapping(mapping)) {
    const matches = query(output as JsonValue, variable.expression);
    variables[name] = variable.singular ? (matches[0] ?? null) : matches;
  }
  return variables;
}
