import { listIssues } from '../errors/field-issues.js';
import { InputError } from '../errors/index.js';
import { compileMapping, type VariableMapping } from '../mapping/mapping.js';
import type { AnyStep } from '../step/define-step.js';
import { MAX_JSON_DEPTH, nestingDepthExceeds } from '../values/json-depth.js';
import { checkConstraints } from './check-constraints.js';
import { inputIssues } from './input-issues.js';

export interface ValidatedInput {
  /** The step's input after its schema: defaults applied, types narrowed. */
  input: unknown;
  /** The variables to map from the output: the step's defaults, the caller's, or only the caller's. */
  mapping: VariableMapping;
}

/**
 * Stage 1: the step's input and the caller's variable mapping are checked
 * before anything else happens, so bad input sends nothing.
 * @throws InputError naming every failing field.
 */
export function validateInput(
  step: AnyStep,
  options: {
    input: unknown;
    variables?: VariableMapping | undefined;
    replaceVariables?: boolean | undefined;
    constraints?: Readonly<Record<string, readonly string[]>> | undefined;
  },
): ValidatedInput {
  checkConstraints(step.id, step.integration, options.constraints);
  // Deeper than any real input, and deep enough to overflow the recursive walks that follow.
  if (nestingDepthExceeds(options.input, MAX_JSON_DEPTH)) {
    throw new InputError(`Input for ${step.id} is nested deeper than ${MAX_JSON_DEPTH} levels.`, [
      { path: '(root)', message: `nested deeper than ${MAX_JSON_DEPTH} levels` },
    ]);
  }
  const parsed = step.input.safeParse(options.input);
  if (!parsed.success) {
    const issues = inputIssues(step.input, parsed.error, options.input);
    throw new InputError(`Invalid input for ${step.id}: ${listIssues(issues)}.`, issues);
  }
  // The step's own (frozen) mapping as is when the caller adds none: compiled once, not per call.
  const mapping = options.replaceVariables
    ? { ...options.variables }
    : options.variables === undefined
      ? step.variables
      : { ...step.variables, ...options.variables };
  compileMapping(mapping);
  return { input: parsed.data, mapping };
}
