import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The tenants-at-scale figures' stores (issue 26): the Redis store under a
 * prefix of this run's own and the Postgres store in a database (and login
 * role, no superuser, so row-level security holds) of its own, each loaded
 * with `tenants` tenants of `perTenant` connections, and removed on close.
 *
 * Loading 100,000 records through `put` would cost three Redis round trips
 * or a five-statement transaction each; instead every record is sealed by
 * the stores' own classes (`WrappedDataKey` makes each tenant's data key,
 * `SealedRecords` seals each connection bound to its tenant, namespace,
 * kind, id and version, as `put` does) and written in Redis pipelines or
 * multi-row INSERTs. A record of the target tenant read back through the
 * store's public `get` proves the rows are what `put` would have written.
 */

/** Where the records of the Postgres store are sealed (`postgres-record-store.ts`'s NAMESPACE); the read-back check fails if it drifts. */
const POSTGRES_RECORD_NAMESPACE = 'postgres:toolsteps';
const BATCH = 2_000;

export const tenantId = (index) => `tenant-${String(index).padStart(5, '0')}`;

/** Loads the stores' sealing from the build. */
async function sealing(build) {
  const load = (file) => import(pathToFileURL(path.join(build, file)).href);
  const [{ SecretBox }, { SealedRecords }, { WrappedDataKey }, { CONNECTION_SHAPE }, { nextVersion }] =
    await Promise.all([
      load('src/store/sealed/secret-box.js'),
      load('src/store/sealed/sealed-records.js'),
      load('src/store/sealed/wrapped-data-key.js'),
      load('src/store/connection-shape.js'),
      load('src/store/redis/encrypted-records.js'),
    ]);
  return { load, SecretBox, SealedRecords, WrappedDataKey, CONNECTION_SHAPE, nextVersion };
}

/**
 * One tenant's connections: `conn-0` ... `conn-<n-1>`, each a ticketing
 * connection like `bench`'s; the target tenant's first is `bench` itself,
 * pointing at the sandbox, so its calls go through.
 */
function tenantConnections(template, perTenant, withBench) {
  return Array.from({ length: perTenant }, (_, at) => ({
    ...template,
    id: withBench && at === 0 ? template.id : `conn-${at}`,
  }));
}

/** Every tenant's data key wrapped and its connections sealed, as `put` would have: `{ tenant, wrapped, rows }`. */
function* sealedTenants(kit, master, { tenants, perTenant, target, template }, namespaces) {
  for (let index = 0; index < tenants; index += 1) {
    const tenant = tenantId(index);
    const { dataKeyNamespace, recordNamespace } = namespaces(tenant);
    const wrapping = new kit.WrappedDataKey(master, tenant, dataKeyNamespace);
    const wrapped = wrapping.fresh();
    const box = wrapping.boxOf(wrapped);
    const sealer = new kit.SealedRecords(() => box, {
      tenant,
      namespace: recordNamespace,
      kind: kit.CONNECTION_SHAPE.kind,
      noun: kit.CONNECTION_SHAPE.noun,
    });
    const rows = tenantConnections(template, perTenant, tenant === target).map((connection) => {
      const { publicPart, secrets } = kit.CONNECTION_SHAPE.split(connection);
      const version = kit.nextVersion(undefined);
      return {
        id: connection.id,
        ...sealer.seal(connection.id, version, JSON.stringify(publicPart), secrets),
      };
    });
    yield { tenant, wrapped, rows };
  }
}

/** The Redis store with `tenants` tenants loaded in pipelines, under a prefix of this run's own. */
export async function openLoadedRedis(build, load, { redisUrl, label }) {
  const kit = await sealing(build);
  const { openRedisStores } = await kit.load('src/coordination/open-redis-stores.js');
  const master = new kit.SecretBox(randomBytes(32));
  const prefix = `bench-${label}-${process.pid}-${randomBytes(4).toString('hex')}`;
  const stores = await openRedisStores({ redisUrl, prefix, box: master });
  const { reachable, detail } = await stores.coordinator.status();
  if (!reachable) {
    await stores.close();
    throw new Error(`not reachable at ${redisUrl} (${detail})`);
  }
  const client = stores.coordinator.client;
  const close = async () => {
    // Every key of the run, found by SCAN (not KEYS: the server is shared), deleted in batches.
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 5_000);
      cursor = next;
      if (keys.length) await client.unlink(...keys);
    } while (cursor !== '0');
    await stores.close();
  };
  try {
    const started = performance.now();
    let pipeline = client.pipeline();
    let queued = 0;
    const namespaces = (tenant) => {
      const tenantPrefix = stores.coordinator.forTenant(tenant).prefix;
      return { dataKeyNamespace: tenantPrefix, recordNamespace: tenantPrefix };
    };
    for (const { tenant, wrapped, rows } of sealedTenants(kit, master, load, namespaces)) {
      const coordinator = stores.coordinator.forTenant(tenant);
      pipeline.set(coordinator.key('datakey', 'current'), wrapped);
      for (const row of rows) {
        pipeline.hset(coordinator.key('conn', row.id), {
          public: row.publicJson,
          secrets: row.sealed,
          kid: row.kid,
          version: row.version,
          format: row.format,
        });
      }
      pipeline.sadd(
        coordinator.key('conn', '_index'),
        rows.map((row) => row.id),
      );
      queued += rows.length;
      if (queued >= BATCH) {
        await pipeline.exec();
        pipeline = client.pipeline();
        queued = 0;
      }
    }
    await pipeline.exec();
    const loadMs = performance.now() - started;
    const view = (tenant) => stores.tenants.forTenant(tenant).connections;
    await checkReadBack(view(load.target), load.template.id);
    const probe = `${prefix}:bench-probe`;
    await client.set(probe, 'x');
    return {
      name: 'Redis store',
      prefix,
      client,
      loadMs,
      view,
      roundTrip: { label: 'one Redis GET', run: () => client.get(probe) },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The Postgres store with `tenants` tenants loaded by multi-row INSERTs, in a database and role of this run's own. */
export async function openLoadedPostgres(build, load, { databaseUrl }) {
  const kit = await sealing(build);
  const [{ openPgPool }, { migrate }, { PostgresTenantStores }, { SCHEMA }] = await Promise.all([
    kit.load('src/peers/load-pg.js'),
    kit.load('src/store/postgres/migrate.js'),
    kit.load('src/store/postgres/postgres-tenant-stores.js'),
    kit.load('src/store/postgres/migrations/migration.js'),
  ]);
  const master = new kit.SecretBox(randomBytes(32));
  const name = `toolsteps_bench_${randomBytes(4).toString('hex')}`;
  const admin = await openPgPool(databaseUrl, { max: 1, connectMs: 3_000 });
  const url = (user, database) => {
    const address = new URL(databaseUrl);
    address.pathname = `/${database}`;
    if (user) {
      address.username = user;
      address.password = '';
    }
    return address.toString();
  };
  let stores;
  let loader;
  const close = async () => {
    await stores?.close();
    await loader?.end();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`DROP ROLE IF EXISTS ${name}`);
    await admin.end();
  };
  try {
    await admin.query(`CREATE ROLE ${name} LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE`);
    await admin.query(`CREATE DATABASE ${name} OWNER ${name}`);
    const migrating = await openPgPool(url(name, name));
    await migrate(migrating).finally(() => migrating.end());
    // The administrator writes the rows: row-level security would hold a session to one tenant per transaction.
    loader = await openPgPool(url(undefined, name), { max: 1, statementMs: 300_000 });
    const started = performance.now();
    const namespaces = () => ({
      dataKeyNamespace: `postgres:${SCHEMA}`,
      recordNamespace: POSTGRES_RECORD_NAMESPACE,
    });
    let keys = [];
    let records = [];
    const flush = async () => {
      if (keys.length) {
        await loader.query(
          `INSERT INTO ${SCHEMA}.data_keys (tenant, wrapped) SELECT * FROM unnest($1::text[], $2::text[])`,
          [keys.map((key) => key.tenant), keys.map((key) => key.wrapped)],
        );
      }
      if (records.length) {
        const column = (field) => records.map((record) => record[field]);
        await loader.query(
          `INSERT INTO ${SCHEMA}.connections (tenant, id, public_json, sealed, kid, version, format)
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[])`,
          [
            column('tenant'),
            column('id'),
            column('publicJson'),
            column('sealed'),
            column('kid'),
            column('version'),
            column('format'),
          ],
        );
      }
      keys = [];
      records = [];
    };
    for (const { tenant, wrapped, rows } of sealedTenants(kit, master, load, namespaces)) {
      keys.push({ tenant, wrapped });
      for (const row of rows) records.push({ tenant, ...row });
      if (records.length >= BATCH) await flush();
    }
    await flush();
    await loader.query(`ANALYZE ${SCHEMA}.connections; ANALYZE ${SCHEMA}.data_keys`);
    const loadMs = performance.now() - started;
    stores = await PostgresTenantStores.open({ url: url(name, name), box: master });
    const view = (tenant) => stores.forTenant(tenant).connections;
    await checkReadBack(view(load.target), load.template.id);
    // The stores' own pool (a private field in TypeScript, there at run time): the baseline's round trip goes through it.
    const pool = stores.pool;
    return {
      name: 'Postgres store',
      database: name,
      pool,
      schema: SCHEMA,
      loadMs,
      view,
      roundTrip: { label: 'one SELECT 1', run: () => pool.query('SELECT 1') },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The target's `bench` connection opens through the public API: the loaded rows are what `put` writes. */
async function checkReadBack(store, id) {
  const found = await store.get(id);
  if (found?.id !== id) throw new Error(`the loaded connection ${id} did not read back through get()`);
}
