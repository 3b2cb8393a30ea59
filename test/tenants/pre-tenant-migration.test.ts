import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { openCoordinator } from '../../src/coordination/open-coordinator.js';
import type { RedisCoordinator } from '../../src/coordination/redis-coordinator.js';
import { DEFAULT_TENANT, parseTenantId } from '../../src/model/tenant-id.js';
import { FileTenantStores } from '../../src/store/files/file-tenant-stores.js';
import { RedisTenantStores } from '../../src/store/redis/redis-tenant-stores.js';
import { SecretBox } from '../../src/store/sealed/secret-box.js';
import { clearTestKeys, redisSuiteEnabled, testRedisUrl } from '../support/test-redis.js';
import {
  FIXTURE_DEDUPE_KEY,
  FIXTURE_KEY,
  FIXTURE_PREFIX,
  FIXTURE_SUBSCRIPTION,
  loadPreTenantRedis,
  preTenantHome,
} from './pre-tenant-fixture.js';

const ACME = parseTenantId('acme');
// The dump's seals bind its key prefix, so it is loaded under that prefix, in a database of its own.
const REDIS_URL = testRedisUrl(13);
const enabled = await redisSuiteEnabled(REDIS_URL);

describe('a file store written before tenants is the default tenant, as it stands', () => {
  const homes: string[] = [];
  afterAll(async () => {
    for (const home of homes) await rm(home, { recursive: true, force: true });
  });

  it('reads its connections, subscription and dedupe record as the default tenant; another tenant sees none', async () => {
    const home = await preTenantHome();
    homes.push(home);
    const stores = new FileTenantStores(home);
    const mine = stores.forTenant(DEFAULT_TENANT);
    expect((await mine.connections.list()).map((item) => item.id)).toEqual(['people', 'support']);
    expect((await mine.connections.get('support'))?.secrets).toEqual({
      accessToken: 'fixture-access-token-support',
    });
    expect(await mine.subscriptions.get(FIXTURE_SUBSCRIPTION)).toMatchObject({
      secret: 'fixture-signing-secret-0123456789',
      lastDeliveryAt: 1_700_000_100_000,
    });
    // The event handled before the upgrade stays handled: a retry of it is a duplicate.
    expect(await mine.dedupe.claim(FIXTURE_DEDUPE_KEY, 1000)).toEqual({ status: 'done' });
    const acme = stores.forTenant(ACME);
    expect(await acme.connections.list()).toEqual([]);
    expect(await acme.connections.get('support')).toBeUndefined();
    expect(await acme.subscriptions.get(FIXTURE_SUBSCRIPTION)).toBeUndefined();
    expect((await acme.dedupe.claim(FIXTURE_DEDUPE_KEY, 1000)).status).toBe('claimed');
    expect(await stores.tenants()).toEqual([{ tenant: 'default', connections: 2, subscriptions: 1 }]);
  });
});

describe.skipIf(!enabled)('a Redis store written before tenants (Redis)', () => {
  const prefix = FIXTURE_PREFIX;
  const master = SecretBox.fromEnv({ TOOLSTEPS_ENCRYPTION_KEY: FIXTURE_KEY });
  const coordinators: RedisCoordinator[] = [];
  afterAll(async () => {
    for (const coordinator of coordinators) await coordinator.close();
    await clearTestKeys(REDIS_URL, prefix);
  });

  async function tenantStores(box: SecretBox) {
    const coordinator = (await openCoordinator({ redisUrl: REDIS_URL, prefix })) as RedisCoordinator;
    coordinators.push(coordinator);
    return new RedisTenantStores(coordinator, box);
  }

  it('opens as the default tenant, and is migrated in place under its data key; the master key rotates by re-wrapping it', async () => {
    await clearTestKeys(REDIS_URL, `${prefix}:`);
    await loadPreTenantRedis(REDIS_URL, prefix);
    const stores = await tenantStores(master);
    const mine = stores.forTenant(DEFAULT_TENANT);
    expect((await mine.connections.get('support'))?.secrets).toEqual({
      accessToken: 'fixture-access-token-support',
    });
    expect((await mine.subscriptions.get(FIXTURE_SUBSCRIPTION))?.secret).toBe(
      'fixture-signing-secret-0123456789',
    );
    expect(await mine.coordinator.claim(FIXTURE_DEDUPE_KEY, 1000)).toEqual({ status: 'done' });
    const acme = stores.forTenant(ACME);
    expect(await acme.connections.list()).toEqual([]);
    expect(await acme.subscriptions.get(FIXTURE_SUBSCRIPTION)).toBeUndefined();
    expect(await stores.tenants()).toEqual([{ tenant: 'default', connections: 2, subscriptions: 1 }]);

    // The records were sealed with the master key itself; rekey re-seals them under the tenant's data key.
    const client = new Redis(REDIS_URL);
    try {
      expect(await client.hget(`${prefix}:conn:support`, 'kid')).toBe(master.keyId);
      const migrated = await stores.rekey();
      expect(migrated).toMatchObject({
        dataKeys: { rewrapped: 0, total: 1 },
        connections: { rekeyed: 2, total: 2, unsealed: [] },
        subscriptions: { rekeyed: 1, total: 1 },
      });
      expect(await client.hget(`${prefix}:conn:support`, 'kid')).toMatch(/^dk-/);
      const sealedBefore = await client.hget(`${prefix}:conn:support`, 'secrets');

      // Rotating the master key re-wraps the data key and leaves every record as it is.
      const next = randomBytes(32);
      const rotated = await tenantStores(new SecretBox(next, [Buffer.from(FIXTURE_KEY, 'base64')]));
      expect(await rotated.rekey()).toMatchObject({
        dataKeys: { rewrapped: 1, total: 1 },
        connections: { rekeyed: 0, total: 2 },
      });
      expect(await client.hget(`${prefix}:conn:support`, 'secrets')).toBe(sealedBefore);
      const newKeyOnly = await tenantStores(new SecretBox(next));
      const reopened = newKeyOnly.forTenant(DEFAULT_TENANT);
      expect((await reopened.connections.get('people'))?.secrets).toEqual({
        apiKey: 'fixture-api-key-people',
      });
      const oldKeyOnly = await tenantStores(master);
      await expect(oldKeyOnly.forTenant(DEFAULT_TENANT).connections.get('people')).rejects.toMatchObject({
        code: 'encryption_key_invalid',
      });
    } finally {
      client.disconnect();
    }
  });
});
