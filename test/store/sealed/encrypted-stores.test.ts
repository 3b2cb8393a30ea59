import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRedisStores, type RedisStores } from '../../../src/coordination/open-redis-stores.js';
import { EncryptionKeyError, InputError } from '../../../src/errors/index.js';
import { RedisConnectionStore } from '../../../src/store/redis/redis-connection-store.js';
import { SecretBox } from '../../../src/store/sealed/secret-box.js';
import { everyRedisValue } from '../../coordination/support/worker-processes.js';
import { clearTestKeys, redisSuiteEnabled, testPrefix, testRedisUrl } from '../../support/test-redis.js';
import { subscriptionFor, TICKETING_SECRET } from '../../triggers/trigger-fixtures.js';

const REDIS_URL = testRedisUrl(8);
const PREFIX = testPrefix('subs');
const enabled = await redisSuiteEnabled(REDIS_URL);
const key = () => randomBytes(32);

describe('SecretBox: AES-256-GCM with the key id beside each value', () => {
  it('opens what it sealed, only for the same record, and never with another key', () => {
    const box = new SecretBox(key());
    const sealed = box.seal('tkt_at_secret', 'connection acme');
    expect(sealed.kid).toBe(box.keyId);
    expect(sealed.data).not.toContain('tkt_at_secret');
    expect(box.open(sealed, 'connection acme')).toBe('tkt_at_secret');
    // Two seals of one value differ (fresh IV), and a sealed value moved to another record does not open.
    expect(box.seal('tkt_at_secret', 'connection acme').data).not.toBe(sealed.data);
    expect(() => box.open(sealed, 'connection other')).toThrow(EncryptionKeyError);
    const flipped = Buffer.from(sealed.data, 'base64');
    flipped[flipped.length - 1] = (flipped[flipped.length - 1] as number) ^ 1;
    expect(() => box.open({ ...sealed, data: flipped.toString('base64') }, 'connection acme')).toThrow(
      /altered, or belong to another record/,
    );
    expect(() => new SecretBox(key()).open(sealed, 'connection acme')).toThrow(
      /neither TOOLSTEPS_ENCRYPTION_KEY/,
    );
  });

  it('reads its keys from the environment, refusing a missing or malformed one by name', () => {
    expect(() => SecretBox.fromEnv({})).toThrow(expect.objectContaining({ problem: 'missing' }));
    for (const bad of [
      'not base64!',
      randomBytes(16).toString('base64'),
      randomBytes(33).toString('base64'),
    ]) {
      expect(() => SecretBox.fromEnv({ TOOLSTEPS_ENCRYPTION_KEY: bad })).toThrow(
        expect.objectContaining({ code: 'encryption_key_invalid', problem: 'malformed' }),
      );
    }
    const old = key();
    const sealed = new SecretBox(old).seal('v', 'r');
    const rotated = SecretBox.fromEnv({
      TOOLSTEPS_ENCRYPTION_KEY: key().toString('base64'),
      TOOLSTEPS_ENCRYPTION_KEY_PREVIOUS: old.toString('base64'),
    });
    expect(rotated.open(sealed, 'r')).toBe('v');
    expect(rotated.keyId).not.toBe(sealed.kid);
  });
});

describe.skipIf(!enabled)('Redis subscription store (Redis)', () => {
  let stores: RedisStores;
  beforeAll(async () => {
    await clearTestKeys(REDIS_URL, PREFIX);
    stores = await openRedisStores({ redisUrl: REDIS_URL, prefix: PREFIX, box: new SecretBox(key()) });
  });
  afterAll(async () => {
    await stores.close();
    await clearTestKeys(REDIS_URL, PREFIX);
  });

  it('keeps the signing secret sealed, records deliveries, and lists and removes like the file store', async () => {
    const id = 'sub_00112233445566778899';
    await stores.subscriptions.put(subscriptionFor('ticketing.ticket_created', { id }));
    expect(await stores.subscriptions.get(id)).toMatchObject({ id, secret: TICKETING_SECRET, active: true });
    await stores.subscriptions.recordDelivery(id, 1234);
    await stores.subscriptions.update(id, (current) => ({ ...current, active: false }));
    expect(await stores.subscriptions.get(id)).toMatchObject({ lastDeliveryAt: 1234, active: false });
    expect((await stores.subscriptions.list()).map((item) => item.id)).toEqual([id]);
    const everything = (await everyRedisValue(REDIS_URL)).join('\n');
    expect(everything).toContain(id);
    expect(everything).not.toContain(TICKETING_SECRET);
    expect(await stores.subscriptions.remove(id)).toBe(true);
    expect(await stores.subscriptions.get(id)).toBeUndefined();
    await expect(stores.subscriptions.update(id, (current) => current)).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('concurrent read-change-writes all land (compare-and-set on the version, retried)', async () => {
    const id = 'sub_99887766554433221100';
    await stores.subscriptions.put(subscriptionFor('ticketing.ticket_created', { id, mapping: {} }));
    await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        stores.subscriptions.update(id, (current) => ({
          ...current,
          mapping: { ...current.mapping, [`v${index}`]: '$.id' },
        })),
      ),
    );
    expect(Object.keys((await stores.subscriptions.get(id))?.mapping ?? {})).toHaveLength(10);
  });
});

describe.skipIf(!enabled)('Redis connection store without the key (Redis)', () => {
  const prefix = testPrefix('conns');
  let stores: RedisStores;
  beforeAll(async () => {
    await clearTestKeys(REDIS_URL, prefix);
    stores = await openRedisStores({ redisUrl: REDIS_URL, prefix, box: new SecretBox(key()) });
  });
  afterAll(async () => {
    await stores.close();
    await clearTestKeys(REDIS_URL, prefix);
  });

  it('lists every connection without its secrets, checked, and skips a hash that is not a whole record', async () => {
    const secrets = { accessToken: 'tkt_at_sealed-0123456789', refreshToken: 'tkt_rt_sealed-0123456789' };
    const connection = {
      id: 'acme',
      integration: 'ticketing',
      kind: 'oauth2' as const,
      fields: { subdomain: 'acme', clientId: 'toolsteps-cli' },
      secrets,
      expiresAt: 1_800_000_000_000,
      createdAt: 1,
      updatedAt: 2,
    };
    await stores.connections.put(connection);
    // A stray key under the index (no sealed part): not a record.
    await stores.coordinator.client.sadd(stores.coordinator.key('conn', '_index'), 'stray');
    await stores.coordinator.client.hset(stores.coordinator.key('conn', 'stray'), 'public', '{"id":"stray"}');
    const { secrets: _sealed, ...publicPart } = connection;
    const listed = await RedisConnectionStore.listWithoutSecrets(stores.coordinator);
    expect(listed).toEqual([publicPart]);
    expect(JSON.stringify(listed)).not.toContain('sealed-0123456789');
  });

  it('refuses a damaged public part by the fields that fail, not by their values', async () => {
    await stores.coordinator.client.hset(
      stores.coordinator.key('conn', 'acme'),
      'public',
      JSON.stringify({
        id: 'acme',
        integration: 'ticketing',
        kind: 'telepathy',
        fields: {},
        createdAt: 1,
        updatedAt: 2,
      }),
    );
    const error = await RedisConnectionStore.listWithoutSecrets(stores.coordinator).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).fields.map((field) => field.path)).toEqual(['kind']);
    expect((error as InputError).message).not.toContain('telepathy');
  });
});
