import type { JSONPathEnvironment, JSONValue } from 'json-p3';
import { type FieldIssue, InputError, OutputError } from '../errors/index.js';
import { MAX_JSON_DEPTH } from '../values/json-depth.js';
import { jsonP3 } from './json-p3.js';
import { linearRegexFunctions } from './linear-regex-functions.js';
import { memberPath } from './member-path.js';

/** Variable name to RFC 9535 JSONPath expression over a step's output. */
export type VariableMapping = Record<string, string>;

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

let environment: JSONPathEnvironment | undefined;

/**
 * One JSONPath environment for every mapping: strict RFC 9535, with the two
 * regex functions replaced by linear-time ones (see linear-regex-functions.ts).
 * `maxRecursionDepth` bounds how deep a descendant segment (`$..x`) walks:
 * as deep as any answer the transport accepts. Made on the first expression
 * that is not a plain member path.
 */
function jsonPathEnvironment(): JSONPathEnvironment {
  if (environment) return environment;
  environment = new (jsonP3().JSONPathEnvironment)({ strict: true, maxRecursionDepth: MAX_JSON_DEPTH });
  const { match, search } = linearRegexFunctions();
  environment.functionRegister.set('match', match);
  environment.functionRegister.set('search', search);
  return environment;
}

interface CompiledVariable {
  /** Every value the expression selects from an output, in order. */
  values: (output: unknown) => unknown[];
  /** A singular query names at most one node (RFC 9535 §2.3.5.1): its variable is a value, not a list. */
  singular: boolean;
}

/** Parsed once per expression: every invocation of a step reuses its default mapping. */
const compiledCache = new Map<string, CompiledVariable>();
const COMPILED_CACHE_LIMIT = 1000;

/** The general RFC 9535 evaluator, for every expression that is not a plain member path. */
function evaluatorVariable(expression: string): CompiledVariable {
  const query = jsonPathEnvironment().compile(expression);
  return { values: (output) => query.query(output as JSONValue).values(), singular: query.singularQuery() };
}

function compileExpression(expression: string): CompiledVariable {
  const cached = compiledCache.get(expression);
  if (cached) return cached;
  const variable = memberPath(expression) ?? evaluatorVariable(expression);
  if (compiledCache.size >= COMPILED_CACHE_LIMIT) compiledCache.clear();
  compiledCache.set(expression, variable);
  return variable;
}

/** Frozen mappings (every step's default one) compiled once: they cannot change after. */
const compiledFrozen = new WeakMap<VariableMapping, Map<string, CompiledVariable>>();

/**
 * Each name and expression of `mapping` through `compile`, and what is wrong
 * with them: a name that is not a variable name, an expression that does
 * not compile (RFC 9535).
 */
function compileEntries(
  mapping: VariableMapping,
  field: string,
  compile: (expression: string) => CompiledVariable | undefined,
): { compiled: Map<string, CompiledVariable>; issues: FieldIssue[] } {
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
      const variable = compile(expression);
      if (variable) compiled.set(name, variable);
    } catch (error) {
      issues.push({
        path: `${field}.${name}`,
        message: `not a valid RFC 9535 JSONPath: ${(error as Error).message.slice(0, 200)}`,
      });
    }
  }
  return { compiled, issues };
}

/**
 * Checks every name and expression before anything is sent, so a typo in a
 * mapping fails the invocation up front rather than after a paid call.
 */
export function compileMapping(mapping: VariableMapping, field = 'variables'): Map<string, CompiledVariable> {
  const frozen = Object.isFrozen(mapping) ? compiledFrozen.get(mapping) : undefined;
  if (frozen) return frozen;
  const { compiled, issues } = compileEntries(mapping, field, compileExpression);
  if (issues.length)
    throw new InputError(`Invalid variable mapping: ${issues.map((i) => i.path).join(', ')}.`, issues);
  if (Object.isFrozen(mapping)) compiledFrozen.set(mapping, compiled);
  return compiled;
}

/**
 * Member names, `[*]`, non-negative indices and filters that compare a
 * member of the current node with a text literal, from the root
 * (`$.person.emails[0].address`, `$.results[?@.status == 'matched'].contact`):
 * valid RFC 9535 by the grammar alone (shorthand, wildcard and index
 * selectors, §2.5.1 to §2.3.3, an index without leading zeros and within
 * I-JSON's range; a filter selector, §2.3.5, whose comparison has a relative
 * singular query on one side and on the other a single-quoted literal of
 * printable ASCII without a quote or backslash, so it needs no escape), so
 * their check needs no JSONPath engine, and defining a step whose defaults
 * filter loads none either. test/mapping/plainly-valid-path.test.ts
 * compiles samples of the form to hold it to that.
 */
export const PLAINLY_VALID_PATH =
  /^\$(?:\.[A-Za-z_][A-Za-z0-9_]*|\[\*\]|\[(?:0|[1-9][0-9]{0,14})\]|\[\?@(?:\.[A-Za-z_][A-Za-z0-9_]*)+ ?[!=]= ?'[ -&(-[\]-~]*'\])*$/;

/**
 * What is wrong with a mapping written into a definition (a step's or a
 * trigger's default variables), in a sentence, or undefined: checked by the
 * compiler invocations use, so a bad path fails where it is written rather
 * than on every call as the caller's bad input. An expression of the
 * plainly valid form (every default of the catalogue) is not compiled, so
 * defining steps whose defaults are all plain loads no JSONPath engine
 * (json-p3.ts); one with any other expression loads it then.
 */
export function definedMappingProblem(mapping: VariableMapping, field = 'variables'): string | undefined {
  const check = (expression: string) =>
    PLAINLY_VALID_PATH.test(expression) ? undefined : compileExpression(expression);
  const { issues } = compileEntries(mapping, field, check);
  return issues.length
    ? `default ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}.`
    : undefined;
}

/**
 * Evaluates a mapping over an output. A singular path gives its value, or
 * null when absent; any other path gives the list of every match.
 *
 * The result has no prototype: a variable may be called `__proto__` or
 * `constructor`, and assigning it must add a variable, never replace the
 * object's prototype.
 */
export function mapVariables(output: unknown, mapping: VariableMapping): Record<string, unknown> {
  const variables: Record<string, unknown> = Object.create(null);
  for (const [name, variable] of compileMapping(mapping)) {
    let matches: unknown[];
    try {
      matches = variable.values(output);
    } catch (error) {
      // Only the general evaluator throws here, so json-p3 is loaded by then.
      if (!(error instanceof jsonP3().JSONPathError)) throw error;
      const issue = { path: `variables.${name}`, message: error.message.slice(0, 200) };
      throw new OutputError(`Variable ${name} could not be read from the output.`, [issue], { cause: error });
    }
    variables[name] = variable.singular ? (matches[0] ?? null) : matches;
  }
  return variables;
}
