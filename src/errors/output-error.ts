import type { ErrorInit, FieldIssue } from './error-fields.js';
import { ToolstepsError } from './toolsteps-error.js';

/** The provider answered with something the step's output schema does not accept. */
export class OutputError extends ToolstepsError {
  override readonly name = 'OutputError' as const;
  constructor(message: string, fields: readonly FieldIssue[] = [], init: ErrorInit = {}) {
    super('output_invalid', message, { sent: true, ...init, fields });
  }

  /**
   * The failing output paths: the same list as `fields`, under the name this
   * class used before the family shared `fields`. Kept so code written against
   * it still runs; `toJSON()`, the CLI, the MCP server and the agent exports
   * say `fields`, and nothing in this package reads this.
   * @deprecated Read `fields`.
   */
  get issues(): readonly FieldIssue[] {
    return this.fields;
  }
}
