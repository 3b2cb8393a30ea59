import { InputError } from '../../errors/index.js';
import type { PgQueryable } from '../../peers/pg-client.js';
import { SCHEMA } from './migrations/migration.js';
import { MIGRATIONS_TABLE } from './schema-version.js';

/** A role name as `db migrate --grant-to` takes it: a plain lower-case identifier, written into GRANT unquoted-safe. */
const ROLE_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;

/** The role, checked: only then may it be written into a statement (GRANT takes no parameters). */
export function parseWorkerRole(role: string): string {
  if (ROLE_PATTERN.test(role)) return role;
  throw new InputError(`Not a role name: "${role.slice(0, 70)}".`, [
    { path: 'grantTo', message: 'lower-case letters, digits and _, starting with a letter or _' },
  ]);
}

/**
 * What the workers' role needs, and nothing more: to read and write rows
 * of the toolsteps tables (row-level security still decides which), and to
 * read which migrations ran. Not ownership: only a table's owner (or a
 * superuser) may `ALTER TABLE ... DISABLE ROW LEVEL SECURITY` or drop its
 * policies, so a worker that is not the owner cannot take the second wall
 * down, whatever its SQL. Given again after every migration (`db migrate
 * --grant-to`), so a table a later migration adds is granted too; GRANT is
 * idempotent.
 */
export async function grantWorkerRole(client: PgQueryable, role: string): Promise<void> {
  const checked = parseWorkerRole(role);
  await client.query(`GRANT USAGE ON SCHEMA ${SCHEMA} TO "${checked}"`);
  await client.query(
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${SCHEMA} TO "${checked}"`,
  );
  await client.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${SCHEMA} TO "${checked}"`);
  // The record of migrations is the migrator's: the workers read it (the schema check), never write it.
  await client.query(`REVOKE INSERT, UPDATE, DELETE ON ${MIGRATIONS_TABLE} FROM "${checked}"`);
}
