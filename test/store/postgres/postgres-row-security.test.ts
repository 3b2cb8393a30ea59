import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTenantId } from '../../../src/model/tenant-id.js';
import { acmeConnection } from '../../support/acme-connection.js';
import { asSuperuser, postgresSuiteEnabled, usePostgresStores } from '../../support/test-postgres.js';

const enabled = await postgresSuiteEnabled();
const [a, b] = [parseTenantId('acme'), parseTenantId('globex')];

/**
 * Row-level security is the second wall: it holds even for SQL that forgets
 * the tenant predicate. Checked as the role the workers use (the test's own,
 * not a superuser, which would bypass every policy), with hand-written SQL.
 */
describe.skipIf(!enabled)('row-level security on the Postgres store (Postgres)', () => {
  const suite = usePostgresStores('rls');
  let client: pg.Client;

  beforeAll(async () => {
    const { database, stores } = suite;
    await stores.forTenant(a).connections.put(acmeConnection('support', 'token-of-acme'));
    await stores.forTenant(b).connections.put(acmeConnection('own', 'token-of-globex'));
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
  });

  /** Runs `sql` in a transaction with `app.tenant` set to `tenant`, as the store's sessions do. */
  async function asTenant(tenant: string, sql: string, values: unknown[] = []) {
    await client.query('BEGIN');
    try {
      await client.query("SELECT set_config('app.tenant', $1, true)", [tenant]);
      return await client.query(sql, values);
    } finally {
      await client.query('ROLLBACK');
    }
  }

  it('the rows are there (the superuser sees both tenants)', async () => {
    const { rows } = await asSuperuser<{ tenant: string }>(
      suite.database.name,
      'SELECT tenant FROM toolsteps.connections ORDER BY tenant',
    );
    expect(rows.map((row) => row.tenant)).toEqual(['acme', 'globex']);
  });

  it('the role the store uses is neither a superuser nor allowed to bypass row-level security', async () => {
    const { rows } = await client.query(
      'SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user',
    );
    expect(rows).toEqual([{ rolsuper: false, rolbypassrls: false }]);
  });

  it('a query without a tenant set sees nothing, and cannot write', async () => {
    expect((await client.query('SELECT * FROM toolsteps.connections')).rows).toEqual([]);
    expect((await client.query('SELECT * FROM toolsteps.subscriptions')).rows).toEqual([]);
    const deleted = await client.query('DELETE FROM toolsteps.connections');
    expect(deleted.rowCount).toBe(0);
  });

  it("tenant b's session cannot see, change or add a's rows, even with SQL that leaves the tenant out", async () => {
    const everything = await asTenant(b, 'SELECT tenant, id FROM toolsteps.connections');
    expect(everything.rows).toEqual([{ tenant: 'globex', id: 'own' }]);
    const byId = await asTenant(b, "SELECT * FROM toolsteps.connections WHERE id = 'support'");
    expect(byId.rows).toEqual([]);
    const named = await asTenant(b, "SELECT * FROM toolsteps.connections WHERE tenant = 'acme'");
    expect(named.rows).toEqual([]);
    const changed = await asTenant(b, "UPDATE toolsteps.connections SET kid = 'x' WHERE id = 'support'");
    expect(changed.rowCount).toBe(0);
    const planted = await asTenant(
      b,
      `INSERT INTO toolsteps.connections (tenant, id, public_json, sealed, kid, version, format)
       VALUES ('acme', 'planted', '{}', 'x', 'k', 1, '2')`,
    ).catch((error: unknown) => error);
    expect(planted).toMatchObject({ code: '42501' });
    expect((planted as Error).message).toContain('row-level security');
  });

  it('a listing session reads across tenants but writes nothing', async () => {
    await client.query('BEGIN READ ONLY');
    try {
      await client.query("SELECT set_config('app.tenant_listing', 'on', true)");
      const { rows } = await client.query('SELECT tenant FROM toolsteps.connections ORDER BY tenant');
      expect(rows.map((row) => row.tenant)).toEqual(['acme', 'globex']);
    } finally {
      await client.query('ROLLBACK');
    }
    await client.query('BEGIN');
    try {
      await client.query("SELECT set_config('app.tenant_listing', 'on', true)");
      expect((await client.query('DELETE FROM toolsteps.connections')).rowCount).toBe(0);
    } finally {
      await client.query('ROLLBACK');
    }
  });

  it('stored secrets are sealed: the superuser reading the table sees no token', async () => {
    const { rows } = await asSuperuser(suite.database.name, 'SELECT * FROM toolsteps.connections');
    const raw = JSON.stringify(rows);
    expect(raw).toContain('support');
    expect(raw).not.toContain('token-of-acme');
    expect(raw).not.toContain('token-of-globex');
  });
});
