import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openRedisStores, type RedisStores } from '../../../src/coordination/open-redis-stores.js';
import { parseTenantId } from '../../../src/model/tenant-id.js';
import { SecretBox } from '../../../src/store/sealed/secret-box.js';
import { acmeConnection } from '../../support/acme-connection.js';
import { clearTestKeys, redisSuiteEnabled, testPrefix, testRedisUrl } from '../../support/test-redis.js';

const REDIS_URL = testRedisUrl(8);
const PREFIX = testPrefix('lookup');
const enabled = await redisSuiteEnabled(REDIS_URL);

/**
 * A stored connection's lookup runs on every invocation: the record and its
 * tenant's data key come back in one command (counted on ioredis's own
 * client), and open as they did when they were two.
 */
describe.skipIf(!enabled)('a Redis connection lookup is one round trip (Redis)', () => {
  let stores: RedisStores;
  beforeAll(async () => {
    await clearTestKeys(REDIS_URL, PREFIX);
    stores = await openRedisStores({
      redisUrl: REDIS_URL,
      prefix: PREFIX,
      box: new SecretBox(randomBytes(32)),
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    await stores.close();
    await clearTestKeys(REDIS_URL, PREFIX);
  });

  it('get sends one command, which reads the record and its data key', async () => {
    await stores.connections.put(acmeConnection('support', 'token-of-acme'));
    await stores.connections.get('support');
    const sent = vi.spyOn(Redis.prototype, 'sendCommand');
    const found = await stores.connections.get('support');
    expect(found?.secrets.accessToken).toBe('token-of-acme');
    expect(sent).toHaveBeenCalledTimes(1);
    expect(await stores.connections.get('missing')).toBeUndefined();
    expect(sent).toHaveBeenCalledTimes(2);
  });

  it("a tenant's lookup opens its own records with its own key, and another tenant's id reads as missing", async () => {
    const globex = stores.tenants.forTenant(parseTenantId('globex')).connections;
    await globex.put(acmeConnection('own', 'token-of-globex'));
    expect((await globex.get('own'))?.secrets.accessToken).toBe('token-of-globex');
    expect(await globex.get('support')).toBeUndefined();
    expect(await stores.connections.get('own')).toBeUndefined();
  });

  it('a record a lookup opened before is still refused once changed in the store, or rolled back', async () => {
    const { client } = stores.coordinator;
    const hashOf = (id: string) => stores.coordinator.key('conn', id);
    await stores.connections.put(acmeConnection('rolled'));
    expect((await stores.connections.get('rolled'))?.id).toBe('rolled');
    const older = await client.hgetall(hashOf('rolled'));
    await stores.connections.update('rolled', (current) => ({ ...current, label: 'Renamed' }));
    await client.hset(hashOf('rolled'), older);
    await expect(stores.connections.get('rolled')).rejects.toMatchObject({ problem: 'rolled_back' });

    await stores.connections.put(acmeConnection('edited'));
    const opened = await stores.connections.get('edited');
    opened!.secrets.accessToken = 'changed by the caller';
    expect((await stores.connections.get('edited'))?.secrets.accessToken).toBe('token-of-edited');
    const part = JSON.parse((await client.hget(hashOf('edited'), 'public')) as string);
    part.fields.baseUrl = 'https://attacker.example';
    await client.hset(hashOf('edited'), 'public', JSON.stringify(part));
    await expect(stores.connections.get('edited')).rejects.toMatchObject({ problem: 'altered' });
  });
});
