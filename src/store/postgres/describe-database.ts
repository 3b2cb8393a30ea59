import { postgresWhere } from '../../peers/load-pg.js';
import type { PgQueryable } from '../../peers/pg-client.js';
import { SCHEMA } from './migrations/migration.js';
import { SCHEMA_VERSION } from './migrations/schema-migrations.js';
import { appliedSchemaVersion } from './schema-version.js';

/** How the Postgres store stands, for `toolsteps doctor`: nothing sealed is read, so no key is needed. */
export interface DatabaseStatus {
  /** The server and database, without credentials. */
  where: string;
  reachable: boolean;
  /** Why not, when it is not (the driver's words, without the URL's password). */
  detail?: string;
  /** The applied schema version, and the one this version of toolsteps needs. */
  version?: number;
  expected: number;
  /** Tables with a tenant whose row-level security is not both enabled and forced. */
  unwalled?: string[];
  /** Whether the role connected bypasses row-level security (a superuser, or BYPASSRLS). */
  bypassesWall?: boolean;
  /**
   * The toolsteps tables (and the schema, as `schema toolsteps`) the role
   * connected owns, itself or through a role it belongs to: an owner may
   * turn a table's row-level security off, so the workers should own none.
   */
  owned?: string[];
}

const UNWALLED = `
SELECT c.relname AS name FROM pg_class c
  JOIN pg_namespace n ON n.oid = c.relnamespace
  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'tenant'
 WHERE n.nspname = $1 AND c.relkind = 'r' AND NOT (c.relrowsecurity AND c.relforcerowsecurity)
 ORDER BY 1`;

/** What the role connected owns in the toolsteps schema, the schema included: ownership, not grants, lets it drop the wall. */
const OWNED = `
SELECT 'schema ' || n.nspname AS name FROM pg_namespace n
 WHERE n.nspname = $1 AND pg_has_role(current_user, n.nspowner, 'MEMBER')
UNION ALL
SELECT c.relname FROM pg_class c
  JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND pg_has_role(current_user, c.relowner, 'MEMBER')
 ORDER BY 1`;

/** Asks the database, through `pool`, how its toolsteps schema and walls stand. */
export async function describeDatabase(pool: PgQueryable, url: string): Promise<DatabaseStatus> {
  const where = postgresWhere(url);
  try {
    const version = await appliedSchemaVersion(pool);
    const unwalled = (await pool.query<{ name: string }>(UNWALLED, [SCHEMA])).rows.map((row) => row.name);
    const { rows } = await pool.query<{ bypasses: boolean }>(
      'SELECT rolsuper OR rolbypassrls AS bypasses FROM pg_roles WHERE rolname = current_user',
    );
    const owned = (await pool.query<{ name: string }>(OWNED, [SCHEMA])).rows.map((row) => row.name);
    return {
      where,
      reachable: true,
      owned,
      version,
      expected: SCHEMA_VERSION,
      unwalled,
      bypassesWall: Boolean(rows[0]?.bypasses),
    };
  } catch (error) {
    const said = error instanceof Error ? error.message.split('\n')[0]?.slice(0, 200) : String(error);
    return { where, reachable: false, detail: said, expected: SCHEMA_VERSION };
  }
}
