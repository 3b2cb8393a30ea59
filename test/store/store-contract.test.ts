import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { openRedisStores, type RedisStores } from '../../src/coordination/open-redis-stores.js';
import { parseTenantId } from '../../src/model/tenant-id.js';
import { FileConnectionStore } from '../../src/store/files/file-connection-store.js';
import { FileSubscriptionStore } from '../../src/store/files/file-subscription-store.js';
import { MemoryConnectionStore } from '../../src/store/memory/memory-connection-store.js';
import { MemorySubscriptionStore } from '../../src/store/memory/memory-subscription-store.js';
import { PostgresTenantStores } from '../../src/store/postgres/postgres-tenant-stores.js';
import { SecretBox } from '../../src/store/sealed/secret-box.js';
import { type OwnDatabase, ownMigratedDatabase, postgresSuiteEnabled } from '../support/test-postgres.js';
import { clearTestKeys, redisSuiteEnabled, testPrefix, testRedisUrl } from '../support/test-redis.js';
import { describeStoreContract } from './support/store-contract.js';

const REDIS_URL = testRedisUrl(12);
const box = new SecretBox(randomBytes(32));
const homes: string[] = [];
const prefixes: string[] = [];
const redisStores: RedisStores[] = [];
let database: OwnDatabase | undefined;
let postgres: PostgresTenantStores | undefined;
const postgresEnabled = await postgresSuiteEnabled();

beforeAll(async () => {
  if (!postgresEnabled) return;
  database = await ownMigratedDatabase('contract');
  postgres = await PostgresTenantStores.open({ url: database.url, box });
});

afterAll(async () => {
  await Promise.all(homes.map((home) => rm(home, { recursive: true, force: true })));
  await Promise.all(redisStores.map((stores) => stores.close()));
  await Promise.all(prefixes.map((prefix) => clearTestKeys(REDIS_URL, prefix)));
  await postgres?.close();
  await database?.drop();
});

describeStoreContract('memory', {
  enabled: true,
  checksConnections: false,
  open: async () => ({
    connections: new MemoryConnectionStore(),
    subscriptions: new MemorySubscriptionStore(),
  }),
});

describeStoreContract('file', {
  enabled: true,
  checksConnections: true,
  open: async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-contract-'));
    homes.push(home);
    return { connections: new FileConnectionStore(home), subscriptions: new FileSubscriptionStore(home) };
  },
});

describeStoreContract('Redis', {
  enabled: await redisSuiteEnabled(REDIS_URL),
  checksConnections: true,
  open: async () => {
    const prefix = testPrefix('contract');
    prefixes.push(prefix);
    const stores = await openRedisStores({ redisUrl: REDIS_URL, prefix, box });
    redisStores.push(stores);
    return stores;
  },
});

describeStoreContract('Postgres', {
  enabled: postgresEnabled,
  checksConnections: true,
  // A tenant of its own per test: the tenant is the whole of what tells one test's rows from another's.
  open: async () =>
    (postgres as PostgresTenantStores).forTenant(parseTenantId(`t${randomBytes(6).toString('hex')}`)),
});
