import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../sandbox/index.js';
import { openCoordinator } from '../../src/coordination/open-coordinator.js';
import type { RedisCoordinator } from '../../src/coordination/redis-coordinator.js';
import type { Connection } from '../../src/model/connection.js';
import { RedisConnectionStore } from '../../src/store/redis/redis-connection-store.js';
import { SecretBox } from '../../src/store/sealed/secret-box.js';
import { clearTestKeys, redisSuiteEnabled, testPrefix, testRedisUrl } from '../support/test-redis.js';
import { ticketingOAuthConnection } from '../support/ticketing-oauth-connection.js';
import type { WorkerConfig } from './support/coordination-worker.js';
import {
  compiledWorker,
  everyRedisValue,
  newEncryptionKey,
  type RunningWorker,
  startChild,
  waitFor,
} from './support/worker-processes.js';

const REDIS_URL = testRedisUrl(2);
const PREFIX = testPrefix('refresh');
const enabled = await redisSuiteEnabled(REDIS_URL);
const KEY = newEncryptionKey();

describe.skipIf(!enabled)('token refresh across worker processes (Redis)', () => {
  let script: string;
  let sandbox: Sandbox;
  let coordinator: RedisCoordinator;
  let store: RedisConnectionStore;
  let prefix: string;
  let connection: Connection;
  const running: RunningWorker[] = [];

  beforeAll(async () => {
    await clearTestKeys(REDIS_URL, PREFIX);
    script = await compiledWorker('toolsteps-refresh-workers');
  }, 120_000);

  beforeEach(async () => {
    prefix = `${PREFIX}-${Date.now()}`;
    sandbox = await startSandbox();
    coordinator = (await openCoordinator({ redisUrl: REDIS_URL, prefix })) as RedisCoordinator;
    store = new RedisConnectionStore(coordinator, SecretBox.fromEnv({ TOOLSTEPS_ENCRYPTION_KEY: KEY }));
    const now = Date.now();
    // Expired a minute ago: every worker's first call finds it due.
    connection = ticketingOAuthConnection(sandbox, 'shared-tickets', {
      expiresAt: now - 60_000,
      createdAt: now - 3_600_000,
    });
    await store.put(connection);
  });

  afterEach(async () => {
    for (const worker of running.splice(0)) worker.child.kill('SIGKILL');
    await coordinator.close();
    await sandbox.close();
  });

  const worker = (job: Partial<WorkerConfig>) => {
    const config: WorkerConfig = {
      redisUrl: REDIS_URL,
      prefix,
      connection: connection.id,
      mode: 'calls',
      concurrency: 5,
      ...job,
    };
    const started = startChild(script, {
      WORKER_CONFIG: JSON.stringify(config),
      TOOLSTEPS_ENCRYPTION_KEY: KEY,
    });
    running.push(started);
    return started;
  };

  it('4 workers x 50 calls on an expired rotating-token connection: exactly 1 refresh, 200 successes', async () => {
    // Every worker loads first, then all start on one signal: their first calls find the token expired together.
    const workers = Array.from({ length: 4 }, () => worker({ calls: 50, goKey: 'go' }));
    await waitFor(() => workers.every((item) => item.output().includes('ready')), 'every worker to load');
    const now = Date.now();
    await coordinator.setValue('go', JSON.stringify({ startAt: now, realStart: now, speed: 1 }), 600_000);
    const results = await Promise.all(workers.map((item) => item.result));
    const refreshes = sandbox.ticketing.oauth.grants.refresh_token;
    const successes = results.reduce((sum, result) => sum + result.ok, 0);
    console.log(
      `[figures] refresh: 4 workers x 50 calls -> ${refreshes} refresh request(s), ${successes} successes, ${results.reduce((sum, result) => sum + result.failed, 0)} failures`,
    );
    expect(results.map((result) => result.errors)).toEqual([{}, {}, {}, {}]);
    expect(successes).toBe(200);
    expect(refreshes).toBe(1);
    const stored = await store.get(connection.id);
    expect(stored?.secrets.refreshToken).not.toBe(connection.secrets.refreshToken);
    // No value in Redis holds any of the secrets, the spent pair or the new one, in clear.
    const everything = (await everyRedisValue(REDIS_URL)).join('\n');
    for (const secret of [
      connection.secrets.accessToken,
      connection.secrets.refreshToken,
      stored?.secrets.accessToken,
      stored?.secrets.refreshToken,
    ]) {
      expect(secret).toBeTruthy();
      expect(everything).not.toContain(secret);
    }
  }, 180_000);

  it('a lock holder SIGKILLed mid-refresh loses the lock by its TTL, and another worker completes the refresh', async () => {
    // The token endpoint holds the first refresh; the provider drops it once its client is gone.
    sandbox.faults.add({
      target: 'ticketing',
      pathIncludes: '/oauth/tokens',
      count: 1,
      action: { kind: 'delay', ms: 20_000, dropIfAbandoned: true },
    });
    const holder = worker({ calls: 1, concurrency: 1, lockTtlMs: 1_500 });
    const tokenRequests = () =>
      sandbox.server.requestLog.filter((entry) => entry.path.includes('/oauth/tokens')).length;
    await waitFor(() => tokenRequests() === 1, 'the first worker to call the token endpoint');
    const others = [worker({ calls: 10, lockTtlMs: 1_500 }), worker({ calls: 10, lockTtlMs: 1_500 })];
    holder.child.kill('SIGKILL');
    await expect(holder.result).rejects.toThrow(/SIGKILL/);
    const results = await Promise.all(others.map((item) => item.result));
    console.log(
      `[figures] refresh holder killed: ${tokenRequests()} token request(s) sent, ${sandbox.ticketing.oauth.grants.refresh_token} completed, ${results.reduce((sum, result) => sum + result.ok, 0)}/20 calls succeeded`,
    );
    expect(results.map((result) => result.errors)).toEqual([{}, {}]);
    expect(results.reduce((sum, result) => sum + result.ok, 0)).toBe(20);
    expect(tokenRequests()).toBe(2);
    expect(sandbox.ticketing.oauth.grants.refresh_token).toBe(1);
  }, 180_000);

  afterAll(() => clearTestKeys(REDIS_URL, PREFIX));
});
