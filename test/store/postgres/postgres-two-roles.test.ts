import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTenantId } from '../../../src/model/tenant-id.js';
import { openPgPool } from '../../../src/peers/load-pg.js';
import { describeDatabase } from '../../../src/store/postgres/describe-database.js';
import { migrateDatabase } from '../../../src/store/postgres/migrate-database.js';
import { PostgresTenantStores } from '../../../src/store/postgres/postgres-tenant-stores.js';
import { SecretBox } from '../../../src/store/sealed/secret-box.js';
import { acmeConnection } from '../../support/acme-connection.js';
import {
  type OwnDatabase,
  ownMigratedDatabase,
  ownTwoRoleDatabase,
  postgresSuiteEnabled,
  type TwoRoleDatabase,
} from '../../support/test-postgres.js';

const enabled = await postgresSuiteEnabled();
const [a, b] = [parseTenantId('acme'), parseTenantId('globex')];

/** What Postgres answers `sql` as the role of `url`: its rows, or the SQLSTATE it refused with. */
async function asRole(url: string, sql: string): Promise<{ rows?: unknown[]; refused?: string }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Several statements answer one result each: the last one's rows are the answer.
    const results = (await client.query(sql)) as unknown as pg.QueryResult | pg.QueryResult[];
    return { rows: (Array.isArray(results) ? results.at(-1) : results)?.rows };
  } catch (error) {
    return { refused: String((error as { code?: unknown }).code) };
  } finally {
    await client.end();
  }
}

/** Every statement with which a table's owner takes row-level security down. */
const TAKE_THE_WALL_DOWN = [
  'ALTER TABLE toolsteps.connections DISABLE ROW LEVEL SECURITY',
  'ALTER TABLE toolsteps.connections NO FORCE ROW LEVEL SECURITY',
  'DROP POLICY connections_own_tenant ON toolsteps.connections',
  'ALTER TABLE toolsteps.data_keys DISABLE ROW LEVEL SECURITY',
];

/**
 * The two-role setup: an owner role migrates (`db migrate --grant-to`), the
 * workers connect as a role that owns nothing and does not bypass the wall.
 * The stores work as that role, tenants stay apart, and it cannot turn the
 * policies off, which the single role the old setup migrated as could.
 */
describe.skipIf(!enabled)(
  'an owner role migrates, the workers connect as a role that owns nothing (Postgres)',
  () => {
    let database: TwoRoleDatabase;
    let single: OwnDatabase;
    let stores: PostgresTenantStores;

    beforeAll(async () => {
      database = await ownTwoRoleDatabase('roles');
      single = await ownMigratedDatabase('single');
      const result = await migrateDatabase(database.ownerUrl, { grantTo: database.workerRole });
      expect(result.granted).toBe(database.workerRole);
      stores = await PostgresTenantStores.open({
        url: database.workerUrl,
        box: new SecretBox(randomBytes(32)),
      });
    });
    afterAll(async () => {
      await stores?.close();
      await database?.drop();
      await single?.drop();
    });

    it('the stores work as the worker role, and each tenant sees only its own rows', async () => {
      await stores.forTenant(a).connections.put(acmeConnection('support', 'token-of-acme'));
      await stores.forTenant(b).connections.put(acmeConnection('own', 'token-of-globex'));
      await stores.forTenant(a).limits.set({ callsPerMinute: 60 });
      await stores.revocations.revoke(a, 'tok_1', new Date(Date.now() + 60_000));
      expect(await stores.revocations.isRevoked(a, 'tok_1')).toBe(true);
      expect(await stores.forTenant(a).audit.read()).toEqual([]);
      expect((await stores.forTenant(a).connections.list()).map(({ id }) => id)).toEqual(['support']);
      expect(await stores.forTenant(b).connections.get('support')).toBeUndefined();
      expect((await stores.tenants()).map(({ tenant }) => tenant).sort()).toEqual([a, b]);
      // Hand-written SQL as the worker, forgetting the tenant: the policies still hold.
      const seen = await asRole(
        database.workerUrl,
        "BEGIN; SELECT set_config('app.tenant', 'globex', true); SELECT id FROM toolsteps.connections",
      );
      expect(seen).toEqual({ rows: [{ id: 'own' }] });
      expect(await stores.eraseTenant(b)).toMatchObject({ tenant: b, connections: 1 });
    });

    it('the worker role cannot turn row-level security off, drop a policy, or rewrite the migrations', async () => {
      for (const sql of [
        ...TAKE_THE_WALL_DOWN,
        "INSERT INTO toolsteps.schema_migrations (version, name) VALUES (999, 'forged')",
      ]) {
        expect({ sql, ...(await asRole(database.workerUrl, sql)) }).toEqual({ sql, refused: '42501' });
      }
      // The same statement as the single role that migrated and owns the tables goes through.
      expect(await asRole(single.url, TAKE_THE_WALL_DOWN[0]!)).toEqual({ rows: [] });
    });

    it('describeDatabase finds nothing the worker owns, and every table the single role owns', async () => {
      const asWorker = await openPgPool(database.workerUrl, { max: 1 });
      const asSingle = await openPgPool(single.url, { max: 1 });
      try {
        const worker = await describeDatabase(asWorker, database.workerUrl);
        expect(worker).toMatchObject({ reachable: true, owned: [], bypassesWall: false, unwalled: [] });
        const owner = await describeDatabase(asSingle, single.url);
        expect(owner.owned).toEqual(expect.arrayContaining(['connections', 'data_keys', 'schema toolsteps']));
      } finally {
        await Promise.all([asWorker.end(), asSingle.end()]);
      }
    });
  },
);
