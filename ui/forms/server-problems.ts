import { ApiError } from '../client/api-error.js';
import type { FormField } from './form-field.js';

/** The server's field messages (the same schema, checked again) beside their fields; nothing for another error. */
export function showServerProblems(fields: readonly FormField[], error: unknown): void {
  if (!(error instanceof ApiError)) return;
  for (const problem of error.fields) {
    const name = problem.path.replace(/^[/$.]*(input[/.])?/, '').split(/[/.[]/)[0];
    fields.find((field) => field.spec.name === name)?.setProblem(problem.message);
  }
}
