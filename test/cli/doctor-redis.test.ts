import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeCliStores } from '../../cli/cli-stores.js';
import { checkCoordinationMode } from '../../cli/doctor/coordination-mode.js';
import { openCoordinator } from '../../src/coordination/open-coordinator.js';
import type { RedisCoordinator } from '../../src/coordination/redis-coordinator.js';
import { RedisConnectionStore } from '../../src/store/redis/redis-connection-store.js';
import { SecretBox } from '../../src/store/sealed/secret-box.js';
import { type OwnRedis, startOwnRedis } from '../support/own-redis.js';
import { redisSuiteEnabled, testRedisUrl } from '../support/test-redis.js';
import { cli, useCliHome } from './cli-harness.js';

const enabled = await redisSuiteEnabled(testRedisUrl(0));

interface Check {
  name: string;
  status: string;
  summary: string;
  details: string[];
}

/**
 * `toolsteps doctor` against Redis servers of the test's own: one that
 * persists nothing, one with an append-only file, and one whose ACL refuses
 * CONFIG; and with no encryption key at all.
 */
describe.skipIf(!enabled)('toolsteps doctor with Redis: persistence, and no key needed', () => {
  let bare: OwnRedis;
  let appending: OwnRedis;
  useCliHome('toolsteps-doctor-redis-', {
    scope: 'all',
    env: ['TOOLSTEPS_REDIS_URL', 'TOOLSTEPS_REDIS_PREFIX', 'TOOLSTEPS_ENCRYPTION_KEY'],
  });

  beforeAll(async () => {
    [bare, appending] = await Promise.all([startOwnRedis('none'), startOwnRedis('aof')]);
  }, 60_000);
  afterAll(async () => {
    await closeCliStores();
    await Promise.all([bare?.close(), appending?.close()]);
  });

  it("warns when the Redis persists nothing (save '' and appendonly no): a restart loses every connection", async () => {
    const check = await checkCoordinationMode({ TOOLSTEPS_REDIS_URL: bare.url });
    expect(check.status).toBe('warn');
    expect(check.summary).toContain('persists nothing');
    expect(check.summary).toContain('every connection, subscription');
    expect(check.details).toContain(
      'persistence: none (CONFIG GET save is empty and appendonly is no): turn on the append-only file (appendonly yes)',
    );
  });

  it('is content with an append-only file, and says so', async () => {
    const check = await checkCoordinationMode({ TOOLSTEPS_REDIS_URL: appending.url });
    expect(check.status).toBe('ok');
    expect(check.details).toContain('persistence: append-only file (appendfsync everysec)');
  });

  it('says persistence is unknown when the ACL refuses CONFIG, and never shows the password', async () => {
    const admin = new Redis(bare.url);
    const password = `pw-${randomBytes(8).toString('hex')}`;
    await admin.acl('SETUSER', 'worker', 'on', `>${password}`, '~*', '&*', '+@all', '-config');
    admin.disconnect();
    const check = await checkCoordinationMode({
      TOOLSTEPS_REDIS_URL: `redis://worker:${password}@127.0.0.1:${bare.port}/0`,
    });
    expect(check.status).toBe('ok');
    expect(check.summary).toContain('(persistence unknown)');
    expect(check.details.at(-1)).toMatch(/^persistence: unknown \(NOPERM .*config/);
    expect(JSON.stringify(check)).not.toContain(password);
  });

  it('needs no encryption key: coordination and connections are reported, nothing fails for want of it', async () => {
    const coordinator = (await openCoordinator({ redisUrl: bare.url, prefix: 'doctor' })) as RedisCoordinator;
    const store = new RedisConnectionStore(coordinator, new SecretBox(randomBytes(32)));
    const now = Date.now();
    await store.put({
      id: 'acme-data',
      integration: 'anz_data',
      kind: 'api_key',
      fields: { baseUrl: 'https://anz-data.example.com' },
      secrets: { apiKey: `key-${randomBytes(8).toString('hex')}` },
      createdAt: now,
      updatedAt: now,
    });
    await coordinator.close();
    process.env.TOOLSTEPS_REDIS_URL = bare.url;
    process.env.TOOLSTEPS_REDIS_PREFIX = 'doctor';
    delete process.env.TOOLSTEPS_ENCRYPTION_KEY;

    const result = await cli('doctor', '--json');
    const { checks } = JSON.parse(result.out) as { checks: Check[] };
    const named = (name: string) => checks.find((check) => check.name === name);
    expect(checks.filter((check) => check.status === 'fail')).toEqual([]);
    expect(result.code).toBe(0);
    expect(named('coordination')).toMatchObject({ status: 'warn' });
    expect(named('coordination')?.details).toContain(
      'TOOLSTEPS_ENCRYPTION_KEY is not set: shared connections can be listed but not used or changed',
    );
    expect(named('connections')).toMatchObject({ status: 'ok', summary: '1 connection' });
    expect(named('connections')?.details.join('\n')).toContain('acme-data (anz_data): healthy, no expiry');
  });
});
