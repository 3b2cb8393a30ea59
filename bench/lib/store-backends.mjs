import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The connection stores a per-call row runs with, each holding the one
 * `bench` connection: memory, the default file store (a temporary
 * TOOLSTEPS_HOME), Redis and Postgres when they answer. A shared store
 * carries `roundTrip`, one bare round trip through the store's own client
 * (a Redis GET, a Postgres `SELECT 1` through the same pool), which its
 * baseline adds to the bare requests. Redis keys go under a prefix of this
 * run's own and Postgres into a database of its own, both removed on close.
 */
export async function openStoreBackends(build, connection, { redisUrl, databaseUrl }) {
  const load = loaderOf(build);
  const [{ MemoryConnectionStore }, { FileConnectionStore }] = await Promise.all([
    load('src/store/memory/memory-connection-store.js'),
    load('src/store/files/file-connection-store.js'),
  ]);
  const box = await freshBox(load);
  const backends = [
    { name: 'memory store', store: new MemoryConnectionStore([connection]), close: async () => {} },
  ];
  const home = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-bench-'));
  const file = new FileConnectionStore(home);
  await file.put(connection);
  backends.push({ name: 'file store', store: file, close: () => rm(home, { recursive: true, force: true }) });
  const skipped = [];
  const redis = await openRedis(load, box, connection, redisUrl).catch((error) => {
    skipped.push(`Redis store: ${error.message}`);
  });
  if (redis) backends.push(redis);
  const postgres = await openPostgres(load, box, connection, databaseUrl).catch((error) => {
    skipped.push(`Postgres store: ${error.message}`);
  });
  if (postgres) backends.push(postgres);
  return { backends, skipped, close: () => Promise.all(backends.map((backend) => backend.close())) };
}

const loaderOf = (build) => (file) => import(pathToFileURL(path.join(build, file)).href);

/** A sealing key of the run's own: the shared stores keep secrets sealed, as in production. */
async function freshBox(load) {
  const { SecretBox } = await load('src/store/sealed/secret-box.js');
  return new SecretBox(randomBytes(32));
}

/**
 * One shared store alone (`redis` or `postgres`), as openStoreBackends opens
 * it, for a process that measures just that store (per-call-child.mjs);
 * rejects when it does not answer.
 */
export async function openSharedBackend(build, connection, name, { redisUrl, databaseUrl }) {
  const load = loaderOf(build);
  const box = await freshBox(load);
  if (name === 'redis') return openRedis(load, box, connection, redisUrl);
  if (name === 'postgres') return openPostgres(load, box, connection, databaseUrl);
  throw new Error(`no shared store ${JSON.stringify(name)}`);
}

/** Redis and an administrator's Postgres URL from the environment (the run makes and drops a database of its own there). */
export function sharedServices() {
  return {
    redisUrl: process.env.TOOLSTEPS_BENCH_REDIS_URL || 'redis://127.0.0.1:6379/0',
    databaseUrl: process.env.TOOLSTEPS_BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  };
}

async function openRedis(load, box, connection, redisUrl) {
  const { openRedisStores } = await load('src/coordination/open-redis-stores.js');
  const prefix = `bench-${process.pid}-${randomBytes(4).toString('hex')}`;
  const stores = await openRedisStores({ redisUrl, prefix, box });
  // status() gives a ping 2 s; a process under callgrind on a loaded machine can take longer to hear the
  // first answer (one such child in four, at load 7): asked three times before it counts as down.
  let { reachable, detail } = await stores.coordinator.status();
  for (let attempt = 1; !reachable && attempt < 3; attempt += 1) {
    ({ reachable, detail } = await stores.coordinator.status());
  }
  if (!reachable) {
    await stores.close();
    throw new Error(`not reachable at ${redisUrl} (${detail})`);
  }
  await stores.connections.put(connection);
  const client = stores.coordinator.client;
  const probe = `${prefix}:bench-probe`;
  await client.set(probe, 'x');
  return {
    name: 'Redis store',
    store: stores.connections,
    roundTrip: { label: 'one Redis GET', run: () => client.get(probe) },
    close: async () => {
      const keys = await client.keys(`${prefix}*`);
      if (keys.length) await client.del(...keys);
      await stores.close();
    },
  };
}

/** A database and a login role of the run's own (no superuser, so row-level security holds as in production), migrated. */
async function openPostgres(load, box, connection, adminUrl) {
  const [{ openPgPool }, { migrate }, { PostgresTenantStores }] = await Promise.all([
    load('src/peers/load-pg.js'),
    load('src/store/postgres/migrate.js'),
    load('src/store/postgres/postgres-tenant-stores.js'),
  ]);
  const name = `toolsteps_bench_${randomBytes(4).toString('hex')}`;
  const admin = await openPgPool(adminUrl, { max: 1, connectMs: 3_000 });
  try {
    await admin.query(`CREATE ROLE ${name} LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE`);
    await admin.query(`CREATE DATABASE ${name} OWNER ${name}`);
  } catch (error) {
    await admin.end();
    throw error;
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  url.username = name;
  url.password = '';
  const migrating = await openPgPool(url.toString());
  await migrate(migrating).finally(() => migrating.end());
  const stores = await PostgresTenantStores.open({ url: url.toString(), box });
  const connections = stores.forTenant('default').connections;
  await connections.put(connection);
  // The stores' own pool (a private field in TypeScript, there at run time): the baseline's round trip goes through it.
  const pool = stores.pool;
  return {
    name: 'Postgres store',
    store: connections,
    roundTrip: { label: 'one SELECT 1', run: () => pool.query('SELECT 1') },
    close: async () => {
      await stores.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.query(`DROP ROLE IF EXISTS ${name}`);
      await admin.end();
    },
  };
}
