import type { ErrorInit, FieldIssue } from './error-fields.js';
import { ToolstepsError } from './toolsteps-error.js';

/** Bad input to a step, connection or mapping. Raised before any request is sent. */
export class InputError extends ToolstepsError {
  override readonly name = 'InputError' as const;
  constructor(message: string, fields: readonly FieldIssue[] = [], init: ErrorInit = {}) {
    super('input_invalid', message, { sent: false, ...init, fields });
  }

  /**
   * The failing input paths: the same list as `fields`, under the name this
   * class used before the family shared `fields`. Kept so code written against
   * it still runs; `toJSON()`, the CLI, the MCP server and the agent exports
   * say `fields`, and nothing in this package reads this.
   * @deprecated Read `fields`.
   */
  get issues(): readonly FieldIssue[] {
    return this.fields;
  }
}
