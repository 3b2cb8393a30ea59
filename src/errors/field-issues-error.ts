import type { ErrorCode, ErrorInit, FieldIssue } from './error-fields.js';
import { ToolstepsError } from './toolsteps-error.js';

/**
 * The base of the two errors that name failing paths of a value (input
 * before a request, output after one). It keeps their old `issues` name in
 * one place.
 */
export abstract class FieldIssuesError extends ToolstepsError {
  constructor(
    code: Extract<ErrorCode, 'input_invalid' | 'output_invalid'>,
    message: string,
    fields: readonly FieldIssue[],
    init: ErrorInit,
  ) {
    super(code, message, { ...init, fields });
  }

  /**
   * The failing paths: the same list as `fields`, under the name these
   * classes used before the family shared `fields`. Kept so code written
   * against it still runs; `toJSON()`, the CLI, the MCP server and the agent
   * exports say `fields`, and nothing in this package reads this.
   * @deprecated Read `fields`.
   */
  get issues(): readonly FieldIssue[] {
    return this.fields;
  }
}
