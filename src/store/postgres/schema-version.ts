import { SchemaError } from '../../errors/index.js';
import type { PgQueryable } from '../../peers/pg-client.js';
import { SCHEMA } from './migrations/migration.js';
import { SCHEMA_VERSION } from './migrations/schema-migrations.js';

/** Where the applied migrations are recorded. It has no tenant and no row-level security: it holds no record. */
export const MIGRATIONS_TABLE = `${SCHEMA}.schema_migrations`;

/** SQLSTATEs of a schema or table that does not exist: a database no migration ran on. */
const ABSENT = new Set(['42P01', '3F000']);

/** The highest migration applied to the database, 0 when none ever was. */
export async function appliedSchemaVersion(pool: PgQueryable): Promise<number> {
  try {
    const { rows } = await pool.query<{ version: number | null }>(
      `SELECT max(version) AS version FROM ${MIGRATIONS_TABLE}`,
    );
    return rows[0]?.version ?? 0;
  } catch (error) {
    if (ABSENT.has(String((error as { code?: unknown }).code))) return 0;
    throw error;
  }
}

/**
 * Refuses a database whose schema is not the one this version of toolsteps
 * reads and writes, before any record is touched: a store on an older
 * schema would fail on its first query, or worse, half work.
 * @throws SchemaError `missing`, `outdated` or `newer`, saying what to run.
 */
export async function checkSchemaVersion(pool: PgQueryable): Promise<number> {
  const found = await appliedSchemaVersion(pool);
  if (found === SCHEMA_VERSION) return found;
  const counts = { found, expected: SCHEMA_VERSION };
  if (found === 0) {
    throw new SchemaError(
      `The database of TOOLSTEPS_DATABASE_URL has no toolsteps tables yet: run \`toolsteps db migrate\` first.`,
      'missing',
      counts,
    );
  }
  if (found < SCHEMA_VERSION) {
    throw new SchemaError(
      `The database of TOOLSTEPS_DATABASE_URL is at schema version ${found}, and this version of toolsteps needs ${SCHEMA_VERSION}: run \`toolsteps db migrate\`.`,
      'outdated',
      counts,
    );
  }
  throw new SchemaError(
    `The database of TOOLSTEPS_DATABASE_URL is at schema version ${found}, newer than the ${SCHEMA_VERSION} this version of toolsteps knows: upgrade toolsteps here.`,
    'newer',
    counts,
  );
}
