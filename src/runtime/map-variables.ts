import { mapVariables as evaluateMapping, type VariableMapping } from '../mapping/mapping.js';

/**
 * Stage 6: evaluates the invocation's variable mapping (RFC 9535 JSONPath,
 * compiled and checked in stage 1, before anything was sent) over the
 * validated output.
 */
export function mapVariables(output: unknown, mapping: VariableMapping): Record<string, unknown> {
  return evaluateMapping(output, mapping);
}
