import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { SchemaError } from '../../../src/errors/index.js';
import { openPgPool } from '../../../src/peers/load-pg.js';
import type { PgPool } from '../../../src/peers/pg-client.js';
import { migrate } from '../../../src/store/postgres/migrate.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../src/store/postgres/migrations/schema-migrations.js';
import { PostgresTenantStores } from '../../../src/store/postgres/postgres-tenant-stores.js';
import { SecretBox } from '../../../src/store/sealed/secret-box.js';
import { type OwnDatabase, ownDatabase, postgresSuiteEnabled } from '../../support/test-postgres.js';

const enabled = await postgresSuiteEnabled();
const box = new SecretBox(randomBytes(32));

describe.skipIf(!enabled)('toolsteps db migrate (Postgres)', () => {
  const databases: OwnDatabase[] = [];
  const pools: PgPool[] = [];
  async function fresh(name: string): Promise<{ db: OwnDatabase; pool: PgPool }> {
    const db = await ownDatabase(name);
    databases.push(db);
    const pool = await openPgPool(db.url);
    pools.push(pool);
    return { db, pool };
  }
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await Promise.all(databases.map((db) => db.drop()));
  });

  it('applies every migration to a new database, each once, and then nothing', async () => {
    const { pool } = await fresh('migrate');
    const first = await migrate(pool);
    expect(first.applied.map((step) => step.version)).toEqual(MIGRATIONS.map((step) => step.version));
    expect(first.version).toBe(SCHEMA_VERSION);
    expect(await migrate(pool)).toEqual({ applied: [], version: SCHEMA_VERSION });
    const { rows } = await pool.query<{ version: number }>(
      'SELECT version FROM toolsteps.schema_migrations ORDER BY version',
    );
    expect(rows.map((row) => row.version)).toEqual(MIGRATIONS.map((step) => step.version));
  });

  it('every table with a tenant has row-level security on, forced on its owner too', async () => {
    const { pool } = await fresh('rls');
    await migrate(pool);
    const { rows } = await pool.query<{ relname: string; on: boolean; forced: boolean }>(
      `SELECT c.relname, c.relrowsecurity AS on, c.relforcerowsecurity AS forced
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON a.attrelid = c.oid
        WHERE n.nspname = 'toolsteps' AND c.relkind = 'r' AND a.attname = 'tenant' ORDER BY c.relname`,
    );
    expect(rows.map((row) => row.relname)).toEqual([
      'audit_events',
      'connection_refresh',
      'connections',
      'data_keys',
      'pending_revocations',
      'subscriptions',
      'tenant_guards',
      'tenant_limits',
      'token_revocations',
    ]);
    expect(rows.every((row) => row.on && row.forced)).toBe(true);
  });

  it('several migrators at once: one applies each migration, the others find it done', async () => {
    const { db } = await fresh('concurrent');
    const racers = await Promise.all(Array.from({ length: 4 }, () => openPgPool(db.url)));
    pools.push(...racers);
    const results = await Promise.all(racers.map((pool) => migrate(pool)));
    const applied = results.flatMap((result) => result.applied.map((step) => step.version)).sort();
    expect(applied).toEqual(MIGRATIONS.map((step) => step.version));
    expect(results.every((result) => result.version === SCHEMA_VERSION)).toBe(true);
  });

  it('a store refuses a database without the schema, or an outdated or newer one, naming what to run', async () => {
    const { db, pool } = await fresh('outdated');
    const opening = () => PostgresTenantStores.open({ url: db.url, box });
    await expect(opening()).rejects.toMatchObject({
      code: 'schema_outdated',
      context: { problem: 'missing', found: 0, expected: SCHEMA_VERSION },
    });
    await migrate(pool, { upTo: 1 });
    const outdated = await opening().catch((error: unknown) => error);
    expect(outdated).toBeInstanceOf(SchemaError);
    expect(outdated).toMatchObject({ retryable: false, context: { problem: 'outdated', found: 1 } });
    expect((outdated as Error).message).toContain('toolsteps db migrate');
    expect((outdated as SchemaError).hint).toContain('toolsteps db migrate');
    await migrate(pool);
    const stores = await opening();
    await stores.close();
    await pool.query(
      "INSERT INTO toolsteps.schema_migrations (version, name) VALUES (999, 'from the future')",
    );
    await expect(opening()).rejects.toMatchObject({ context: { problem: 'newer', found: 999 } });
  });

  it('a failing migration leaves the database at the last one that worked', async () => {
    const { pool } = await fresh('partial');
    await pool.query('CREATE SCHEMA toolsteps');
    // Something already holds the name the second migration creates.
    await pool.query('CREATE TABLE toolsteps.token_revocations (x int)');
    await expect(migrate(pool)).rejects.toMatchObject({
      code: 'network_error',
      retryable: false,
      transportCode: '42P07',
    });
    const { rows } = await pool.query<{ version: number }>('SELECT version FROM toolsteps.schema_migrations');
    expect(rows.map((row) => row.version)).toEqual([1]);
    await pool.query('DROP TABLE toolsteps.token_revocations');
    expect((await migrate(pool)).applied.map((step) => step.version)).toEqual(
      MIGRATIONS.slice(1).map((step) => step.version),
    );
  });
});
