import type { Command } from 'commander';
import { definedOnly } from '../../src/values/defined-only.js';
import { printJson } from '../output.js';

/**
 * `db migrate`: brings the Postgres schema of TOOLSTEPS_DATABASE_URL up to
 * what this version needs; with `--grant-to`, run as the owner, it then
 * grants the workers' role the rows it needs and nothing it could drop the
 * row-level security with.
 */
async function migrateDatabase(options: { grantTo?: string }, command: Command): Promise<void> {
  const [{ configuredDatabaseUrl }, { postgresWhere }, { migrateDatabase }, { InputError }] =
    await Promise.all([
      import('../../src/store/postgres/database-url.js'),
      import('../../src/peers/load-pg.js'),
      import('../../src/store/postgres/migrate-database.js'),
      import('../../src/errors/index.js'),
    ]);
  const url = configuredDatabaseUrl();
  if (!url) {
    throw new InputError('db migrate works on the database in TOOLSTEPS_DATABASE_URL, which is not set.', [
      { path: 'TOOLSTEPS_DATABASE_URL', message: 'required' },
    ]);
  }
  const where = postgresWhere(url);
  const result = await migrateDatabase(url, definedOnly({ grantTo: options.grantTo }));
  if (command.optsWithGlobals().json) return printJson(result);
  const applied = result.applied.map((step) => `  ${step.version}  ${step.name}\n`).join('');
  process.stdout.write(
    result.applied.length
      ? `Applied ${result.applied.length} migration(s) to ${where}:\n${applied}The schema is at version ${result.version}.\n`
      : `Nothing to apply: ${where} is at schema version ${result.version}.\n`,
  );
  if (result.granted) {
    process.stdout.write(`Granted ${result.granted} the toolsteps tables' rows (it owns none of them).\n`);
  }
}

/** `db`: the Postgres store's schema (TOOLSTEPS_DATABASE_URL). */
export default function registerDbCommand(program: Command): void {
  const db = program.command('db').description('The PostgreSQL store (TOOLSTEPS_DATABASE_URL): its schema.');
  db.command('migrate')
    .description(
      'Apply the migrations this version needs, each in a transaction; safe to run again, or from several workers at once.',
    )
    .option(
      '--grant-to <role>',
      'the role the workers connect as: granted rows of every toolsteps table, never their ownership (run this as the owner role)',
    )
    .action(async (options: { grantTo?: string }, command: Command) => migrateDatabase(options, command));
}
