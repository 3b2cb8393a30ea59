import type { ErrorInit } from './error-fields.js';
import { ToolstepsError } from './toolsteps-error.js';

/**
 * How a database's schema stands against the one this version of toolsteps
 * is written for:
 * - `missing`: no toolsteps table at all (a new database);
 * - `outdated`: migrations this version needs were not applied yet;
 * - `newer`: a later version of toolsteps migrated it further.
 */
export type SchemaProblem = 'missing' | 'outdated' | 'newer';

/**
 * The database's schema is not the one this version expects, found when a
 * store opens, before anything is read or written. Not retryable as is: the
 * hint says what to run (`toolsteps db migrate`, or an upgrade of toolsteps).
 */
export class SchemaError extends ToolstepsError {
  override readonly name = 'SchemaError' as const;
  constructor(
    message: string,
    problem: SchemaProblem,
    init: ErrorInit & { found: number; expected: number },
  ) {
    const { found, expected, ...rest } = init;
    super('schema_outdated', message, {
      ...rest,
      retryable: false,
      sent: false,
      hint:
        problem === 'newer'
          ? 'Upgrade toolsteps on this machine to the version that migrated the database.'
          : 'Run `toolsteps db migrate` with the same TOOLSTEPS_DATABASE_URL, then start again.',
      context: { ...rest.context, problem, found, expected },
    });
  }

  get problem(): SchemaProblem {
    return this.context.problem as SchemaProblem;
  }
}
