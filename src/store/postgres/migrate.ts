import type { PgClient, PgPool } from '../../peers/pg-client.js';
import { type Migration, SCHEMA } from './migrations/migration.js';
import { MIGRATIONS } from './migrations/schema-migrations.js';
import { postgresFailure } from './postgres-failure.js';
import { appliedSchemaVersion, MIGRATIONS_TABLE } from './schema-version.js';
import { grantWorkerRole, parseWorkerRole } from './worker-grants.js';

/** The advisory lock `db migrate` holds: one migrator at a time per database, however many start at once. */
const MIGRATE_LOCK = 7_427_116_001;

export interface MigrateOptions {
  /** Apply only up to this version (tests make an outdated schema with it). Default: every migration. */
  upTo?: number;
  /** How long to wait for another migrator's lock. Default 60 s. */
  lockWaitMs?: number;
  /** The deadline of one migration's statements. Default 5 minutes. */
  statementMs?: number;
  /**
   * The role the workers connect as, when it is not the one migrating: it
   * is granted rows of every toolsteps table after the migrations
   * (`grantWorkerRole`), and owns none of them.
   */
  grantTo?: string;
}

/** What `db migrate` did: the migrations it applied now, and the version the database is at after. */
export interface MigrateResult {
  applied: { version: number; name: string }[];
  version: number;
  /** The workers' role granted the tables, when `grantTo` named one. */
  granted?: string;
}

async function applyOne(client: PgClient, migration: Migration): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query(migration.sql);
    await client.query(`INSERT INTO ${MIGRATIONS_TABLE} (version, name) VALUES ($1, $2)`, [
      migration.version,
      migration.name,
    ]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

async function applyPending(client: PgClient, upTo: number): Promise<MigrateResult['applied']> {
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`);
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
  );
  const { rows } = await client.query<{ version: number }>(`SELECT version FROM ${MIGRATIONS_TABLE}`);
  const done = new Set(rows.map((row) => row.version));
  const applied: MigrateResult['applied'] = [];
  for (const migration of MIGRATIONS) {
    if (migration.version > upTo || done.has(migration.version)) continue;
    await applyOne(client, migration);
    applied.push({ version: migration.version, name: migration.name });
  }
  return applied;
}

/**
 * Brings the database's toolsteps schema up to date: each pending migration
 * in its own transaction (a failure leaves the database at the last one
 * that succeeded), recorded in `toolsteps.schema_migrations`. Running it
 * again applies nothing. Several at once (every worker of a deploy running
 * it) are serialized by an advisory lock: the first applies, the others
 * find nothing left to do. The session is closed after, not pooled, since
 * its deadlines were changed for the migration.
 */
export async function migrate(pool: PgPool, options: MigrateOptions = {}): Promise<MigrateResult> {
  const grantTo = options.grantTo === undefined ? undefined : parseWorkerRole(options.grantTo);
  const client = await pool.connect().catch((error: unknown) => {
    throw postgresFailure(error);
  });
  let broken: Error | undefined;
  try {
    await client.query("SELECT set_config('lock_timeout', $1, false)", [
      String(options.lockWaitMs ?? 60_000),
    ]);
    await client.query("SELECT set_config('statement_timeout', $1, false)", [
      String(options.statementMs ?? 300_000),
    ]);
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATE_LOCK]);
    try {
      const applied = await applyPending(client, options.upTo ?? Number.POSITIVE_INFINITY);
      if (grantTo !== undefined) await grantWorkerRole(client, grantTo);
      const version = await appliedSchemaVersion(client);
      return grantTo === undefined ? { applied, version } : { applied, version, granted: grantTo };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATE_LOCK]).catch(() => undefined);
    }
  } catch (error) {
    broken = error instanceof Error ? error : new Error(String(error));
    throw postgresFailure(error);
  } finally {
    client.release(broken ?? true);
  }
}
