import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCoordinator } from '../../../src/coordination/open-coordinator.js';
import type { RedisCoordinator } from '../../../src/coordination/redis-coordinator.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { RedisTenantStores } from '../../../src/store/redis/redis-tenant-stores.js';
import { SecretBox } from '../../../src/store/sealed/secret-box.js';
import { createRegistry } from '../../../steps/index.js';
import { clearTestKeys, redisSuiteEnabled, testPrefix, testRedisUrl } from '../../support/test-redis.js';
import {
  A,
  A_ONLY,
  A_SUBSCRIPTION,
  A_TOKEN,
  B,
  B_TOKEN,
  countingProvider,
  deskConnection,
  seedTwoTenants,
} from './two-tenants.js';

const REDIS_URL = testRedisUrl(12);
const enabled = await redisSuiteEnabled(REDIS_URL);

describe.skipIf(!enabled)('Redis store: tenant b cannot reach tenant a (Redis)', () => {
  const prefix = testPrefix('isolation');
  const masterKey = randomBytes(32);
  const coordinators: RedisCoordinator[] = [];
  let stores: RedisTenantStores;
  let provider: Awaited<ReturnType<typeof countingProvider>>;

  async function open(box: SecretBox): Promise<RedisTenantStores> {
    const coordinator = (await openCoordinator({ redisUrl: REDIS_URL, prefix })) as RedisCoordinator;
    coordinators.push(coordinator);
    return new RedisTenantStores(coordinator, box);
  }
  const client = () => stores.coordinator.client;
  const aKey = (kind: string, id: string) => `${prefix}:t:a:${kind}:${id}`;
  const bKey = (kind: string, id: string) => `${prefix}:t:b:${kind}:${id}`;

  beforeAll(async () => {
    await clearTestKeys(REDIS_URL, prefix);
    provider = await countingProvider();
    stores = await open(new SecretBox(masterKey));
    await seedTwoTenants(stores, provider.url, { subscription: true });
  });
  afterAll(async () => {
    for (const coordinator of coordinators) await coordinator.close();
    await provider.close();
    await clearTestKeys(REDIS_URL, prefix);
  });

  it("keeps each tenant's keys under its prefix; b finds a's records neither by id nor by list", async () => {
    expect(await client().call('EXISTS', aKey('conn', 'support'), bKey('conn', 'support'))).toBe(2);
    const b = stores.forTenant(B);
    expect(await b.connections.get(A_ONLY)).toBeUndefined();
    expect(await b.subscriptions.get(A_SUBSCRIPTION)).toBeUndefined();
    expect((await b.connections.list()).map((item) => item.id)).toEqual(['support']);
    expect((await b.connections.get('support'))?.secrets.accessToken).toBe(B_TOKEN);
    expect(await stores.tenants()).toEqual([
      { tenant: 'a', connections: 2, subscriptions: 1 },
      { tenant: 'b', connections: 1, subscriptions: 0 },
    ]);
  });

  it("a's record copied into b's keys is refused as tampered, and nothing is sent with it", async () => {
    provider.seen.length = 0;
    await client().hset(bKey('conn', 'copied'), await client().hgetall(aKey('conn', A_ONLY)));
    // The id inside is a's; make it match the key, as a careful attacker would.
    const publicPart = JSON.parse((await client().hget(bKey('conn', 'copied'), 'public')) as string);
    await client().hset(bKey('conn', 'copied'), 'public', JSON.stringify({ ...publicPart, id: 'copied' }));
    await client().sadd(bKey('conn', '_index'), 'copied');
    await expect(stores.forTenant(B).connections.get('copied')).rejects.toMatchObject({
      code: 'record_tampered',
      problem: 'altered',
    });
    const runtime = new Runtime({ tenant: B, tenantStores: stores, transport: 'fetch' });
    await expect(
      createRegistry().invoke(runtime, 'ticketing.api_call', {
        connection: 'copied',
        input: { method: 'GET', endpoint: '/api/v2/tickets.json' },
      }),
    ).rejects.toMatchObject({ code: 'record_tampered' });
    // The same id under the same key name, unedited: refused as well (the seal binds the tenant).
    await client().hset(bKey('conn', A_ONLY), await client().hgetall(aKey('conn', A_ONLY)));
    await expect(stores.forTenant(B).connections.get(A_ONLY)).rejects.toMatchObject({
      code: 'record_tampered',
    });
    // a's data key copied over b's does not open for b.
    const bWrapped = (await client().get(bKey('datakey', 'current'))) as string;
    await client().set(
      bKey('datakey', 'current'),
      (await client().get(aKey('datakey', 'current'))) as string,
    );
    await expect(stores.forTenant(B).connections.get('support')).rejects.toMatchObject({
      code: 'record_tampered',
    });
    expect(provider.seen).toEqual([]);
    await client().set(bKey('datakey', 'current'), bWrapped);
    await client().del(bKey('conn', 'copied'), bKey('conn', A_ONLY));
    await client().srem(bKey('conn', '_index'), 'copied', A_ONLY);
  });

  it('erasing a deletes every key of a and its data key: a copy of its records from a backup never opens again', async () => {
    const backup = new Map<string, Record<string, string>>();
    for (const id of ['support', A_ONLY])
      backup.set(aKey('conn', id), await client().hgetall(aKey('conn', id)));
    const wrappedKey = (await client().get(aKey('datakey', 'current'))) as string;
    expect(await stores.eraseTenant(A)).toEqual({ tenant: 'a', connections: 2, subscriptions: 1 });
    expect(await client().call('KEYS', `${prefix}:t:a:*`)).toEqual([]);
    expect((await stores.forTenant(B).connections.get('support'))?.secrets.accessToken).toBe(B_TOKEN);

    // The records restored alone: a's data key is gone, so they do not open (a new a gets a new key).
    for (const [key, hash] of backup) await client().hset(key, hash);
    await client().sadd(aKey('conn', '_index'), 'support', A_ONLY);
    await stores.forTenant(A).connections.put(deskConnection('fresh', A_TOKEN, provider.url));
    await expect(stores.forTenant(A).connections.get('support')).rejects.toMatchObject({
      code: 'record_tampered',
    });

    // A whole backup, wrapped data key included, opens only with the master key of its day: after the
    // master key is rotated (`connections rekey`) and the old one dropped, it opens nothing.
    await stores.eraseTenant(A);
    const next = randomBytes(32);
    await (await open(new SecretBox(next, [masterKey]))).rekey();
    for (const [key, hash] of backup) await client().hset(key, hash);
    await client().sadd(aKey('conn', '_index'), 'support', A_ONLY);
    await client().set(aKey('datakey', 'current'), wrappedKey);
    const afterRotation = await open(new SecretBox(next));
    await expect(afterRotation.forTenant(A).connections.get('support')).rejects.toMatchObject({
      code: 'encryption_key_invalid',
    });
    expect((await afterRotation.forTenant(B).connections.get('support'))?.secrets.accessToken).toBe(B_TOKEN);
  });
});
