import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TimeoutError } from '../../../src/errors/index.js';
import { PostgresTenantStores } from '../../../src/store/postgres/postgres-tenant-stores.js';
import { SecretBox } from '../../../src/store/sealed/secret-box.js';
import { DEFAULT_TENANT } from '../../../src/tenants/tenant-id.js';
import { acmeConnection } from '../../support/acme-connection.js';
import { asSuperuser, postgresSuiteEnabled, usePostgresStores } from '../../support/test-postgres.js';

const enabled = await postgresSuiteEnabled();
const firstKey = randomBytes(32);
const box = new SecretBox(firstKey);

/**
 * Two stores on their own pools are two workers to Postgres: the refresh
 * lock holds across them, and dies with its holder's session. Someone who
 * can write the tables but holds no key changes a record's public fields,
 * copies it onto another id or restores an older copy: refused, as in Redis.
 */
describe.skipIf(!enabled)('Postgres connection locks and sealed rows (Postgres)', () => {
  const suite = usePostgresStores('locks', { box, lockWaitMs: 300 });
  let two: PostgresTenantStores;
  const sql = (text: string) => asSuperuser(suite.database.name, text);

  beforeAll(async () => {
    two = await PostgresTenantStores.open({ url: suite.database.url, box, lockWaitMs: 300 });
    await suite.stores.forTenant(DEFAULT_TENANT).connections.put(acmeConnection('shared'));
  });
  afterAll(async () => {
    await two?.close();
  });

  it('a second worker waits for the holder, then gives up with a retryable timeout naming the lock', async () => {
    let release!: () => void;
    const holding = suite.stores
      .forTenant(DEFAULT_TENANT)
      .connections.withConnectionLock('shared', () => new Promise<void>((resolve) => (release = resolve)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const waited = await two
      .forTenant(DEFAULT_TENANT)
      .connections.withConnectionLock('shared', async () => 'entered')
      .catch((error: unknown) => error);
    expect(waited).toBeInstanceOf(TimeoutError);
    expect(waited).toMatchObject({ retryable: true, context: { lock: 'connection:shared' } });
    release();
    await holding;
    expect(
      await two.forTenant(DEFAULT_TENANT).connections.withConnectionLock('shared', async () => 'entered'),
    ).toBe('entered');
  });

  it('a holder whose session dies (a killed worker) frees the lock at once, without a TTL to wait out', async () => {
    let release!: () => void;
    const holding = suite.stores
      .forTenant(DEFAULT_TENANT)
      .connections.withConnectionLock('shared', () => new Promise<void>((resolve) => (release = resolve)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await sql(
      `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    expect(
      await two.forTenant(DEFAULT_TENANT).connections.withConnectionLock('shared', async () => 'entered'),
    ).toBe('entered');
    release();
    await holding; // its unlock finds the session gone: no error, no crash
  });

  it('a public field changed in the table without the key is refused before use', async () => {
    await suite.stores.forTenant(DEFAULT_TENANT).connections.put(acmeConnection('edited'));
    await sql(
      `UPDATE toolsteps.connections SET public_json = replace(public_json, '"acme"', '"attacker"') WHERE id = 'edited'`,
    );
    await expect(suite.stores.forTenant(DEFAULT_TENANT).connections.get('edited')).rejects.toMatchObject({
      code: 'record_tampered',
      problem: 'altered',
    });
  });

  it('a row copied onto another id does not open there', async () => {
    await suite.stores.forTenant(DEFAULT_TENANT).connections.put(acmeConnection('origin'));
    await sql(
      `INSERT INTO toolsteps.connections (tenant, id, public_json, sealed, kid, version, format)
       SELECT tenant, 'copy', replace(public_json, '"origin"', '"copy"'), sealed, kid, version, format
         FROM toolsteps.connections WHERE id = 'origin'`,
    );
    await expect(suite.stores.forTenant(DEFAULT_TENANT).connections.get('copy')).rejects.toMatchObject({
      problem: 'altered',
    });
  });

  it('an older copy restored over a row is refused by a process that saw the newer one', async () => {
    const connections = suite.stores.forTenant(DEFAULT_TENANT).connections;
    await connections.put(acmeConnection('rolled'));
    await sql(`CREATE TABLE public.saved AS SELECT * FROM toolsteps.connections WHERE id = 'rolled'`);
    await connections.update('rolled', (current) => ({ ...current, label: 'Renamed' }));
    await sql(
      `UPDATE toolsteps.connections c SET public_json = s.public_json, sealed = s.sealed, version = s.version
         FROM public.saved s WHERE c.tenant = s.tenant AND c.id = s.id`,
    );
    await expect(connections.get('rolled')).rejects.toMatchObject({ problem: 'rolled_back' });
  });

  it('rekey seals what an older key sealed with the current one', async () => {
    const olderKey = randomBytes(32);
    const before = await PostgresTenantStores.open({ url: suite.database.url, box: new SecretBox(olderKey) });
    await before.forTenant(DEFAULT_TENANT).connections.put(acmeConnection('rotated', 'kept-across'));
    await before.close();
    // TOOLSTEPS_ENCRYPTION_KEY rotated, the keys before it in TOOLSTEPS_ENCRYPTION_KEY_PREVIOUS.
    const rotated = new SecretBox(randomBytes(32), [olderKey, firstKey]);
    const after = await PostgresTenantStores.open({ url: suite.database.url, box: rotated });
    try {
      const connections = after.forTenant(DEFAULT_TENANT).connections;
      await sql(`DELETE FROM toolsteps.connections WHERE id IN ('edited', 'copy', 'rolled')`);
      const counts = await connections.rekey();
      expect(counts).toEqual({ rekeyed: counts.total, total: 3, unsealed: [] });
      expect((await connections.get('rotated'))?.secrets.accessToken).toBe('kept-across');
      const { rows } = await sql(`SELECT kid FROM toolsteps.connections WHERE id = 'rotated'`);
      expect(rows).toEqual([{ kid: rotated.keyId }]);
    } finally {
      await after.close();
    }
  });
});
