import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TimeoutError } from '../../../src/errors/index.js';
import { DEFAULT_TENANT, type TenantId } from '../../../src/model/tenant-id.js';
import { PostgresTenantStores } from '../../../src/store/postgres/postgres-tenant-stores.js';
import { SecretBox } from '../../../src/store/sealed/secret-box.js';
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

  /** The first worker takes the lock on `shared` and holds it until `release` is called. */
  async function holdTheLock() {
    let release!: () => void;
    let entered!: () => void;
    // Waits until the holder is inside the lock, however busy the machine (a fixed pause was not always enough).
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const holding = suite.stores.forTenant(DEFAULT_TENANT).connections.withConnectionLock(
      'shared',
      () =>
        new Promise<void>((resolve) => {
          release = resolve;
          entered();
        }),
    );
    await inside;
    return { holding, release };
  }

  /** The second worker asks for the lock on `shared`: `entered` once it has it. */
  const enterAsSecond = () =>
    two.forTenant(DEFAULT_TENANT).connections.withConnectionLock('shared', async () => 'entered');

  it('a second worker waits for the holder, then gives up with a retryable timeout naming the lock', async () => {
    const { holding, release } = await holdTheLock();
    const waited = await enterAsSecond().catch((error: unknown) => error);
    expect(waited).toBeInstanceOf(TimeoutError);
    expect(waited).toMatchObject({ retryable: true, context: { lock: 'connection:shared' } });
    release();
    await holding;
    expect(await enterAsSecond()).toBe('entered');
  });

  it('a holder whose session dies (a killed worker) frees the lock at once, without a TTL to wait out', async () => {
    const { holding, release } = await holdTheLock();
    await sql(
      `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    expect(await enterAsSecond()).toBe('entered');
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

  it('seals with the tenant’s own data key, and a rotation re-wraps that key without re-sealing a record', async () => {
    const connections = suite.stores.forTenant(DEFAULT_TENANT).connections;
    await connections.put(acmeConnection('rotated', 'kept-across'));
    const sealedWith = async () =>
      (await sql(`SELECT kid FROM toolsteps.connections WHERE id = 'rotated'`)).rows[0]?.kid as string;
    const kidBefore = await sealedWith();
    expect(kidBefore).not.toBe(box.keyId);
    // TOOLSTEPS_ENCRYPTION_KEY rotated, the key before it in TOOLSTEPS_ENCRYPTION_KEY_PREVIOUS.
    const newKey = randomBytes(32);
    const rotated = await PostgresTenantStores.open({
      url: suite.database.url,
      box: new SecretBox(newKey, [firstKey]),
    });
    try {
      const counts = await rotated.rekey();
      expect(counts.dataKeys.rewrapped).toBe(counts.dataKeys.total);
      expect(counts.connections.rekeyed).toBe(0);
      expect(await sealedWith()).toBe(kidBefore);
    } finally {
      await rotated.close();
    }
    // The old master key can go: the new one alone opens the re-wrapped data key, and through it the record.
    const onlyNew = await PostgresTenantStores.open({ url: suite.database.url, box: new SecretBox(newKey) });
    try {
      const read = await onlyNew.forTenant(DEFAULT_TENANT).connections.get('rotated');
      expect(read?.secrets.accessToken).toBe('kept-across');
    } finally {
      await onlyNew.close();
    }
  });

  it('a tenant’s row copied into another tenant does not open, and erasing a tenant leaves nothing that opens', async () => {
    const acme = suite.stores.forTenant('acme' as TenantId).connections;
    await acme.put(acmeConnection('moved', 'acme-secret'));
    await suite.stores
      .forTenant('globex' as TenantId)
      .connections.put(acmeConnection('own', 'globex-secret'));
    await sql(`CREATE TABLE public.backup AS SELECT * FROM toolsteps.connections WHERE tenant = 'acme'`);
    await sql(
      `INSERT INTO toolsteps.connections (tenant, id, public_json, sealed, kid, version, format)
         SELECT 'globex', 'stolen', public_json, sealed, kid, version, format FROM public.backup WHERE id = 'moved'`,
    );
    await expect(suite.stores.forTenant('globex' as TenantId).connections.get('stolen')).rejects.toThrow();
    await suite.stores.eraseTenant('acme' as TenantId);
    expect(
      (await sql(`SELECT count(*)::int AS n FROM toolsteps.data_keys WHERE tenant = 'acme'`)).rows,
    ).toEqual([{ n: 0 }]);
    // A backup restored after the erasure: its rows are back, its key is not, so nothing opens.
    await sql(`INSERT INTO toolsteps.connections SELECT * FROM public.backup`);
    await expect(acme.get('moved')).rejects.toThrow();
    expect(JSON.stringify(await acme.listWithoutSecrets())).not.toContain('acme-secret');
  });
});
