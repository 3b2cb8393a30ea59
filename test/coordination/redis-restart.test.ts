import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/index.js';
import { openRedisStores, type RedisStores } from '../../src/coordination/open-redis-stores.js';
import { RedisConnectionStore } from '../../src/store/redis/redis-connection-store.js';
import { SecretBox } from '../../src/store/sealed/secret-box.js';
import { useFixture } from '../support/fixture-lifecycle.js';
import { startOwnRedis } from '../support/own-redis.js';
import { redisSuiteEnabled, testRedisUrl } from '../support/test-redis.js';
import { ticketingOAuthConnection } from '../support/ticketing-oauth-connection.js';
import type { WorkerConfig } from './support/coordination-worker.js';
import { compiledWorker, newEncryptionKey, startChild, waitFor } from './support/worker-processes.js';

const enabled = await redisSuiteEnabled(testRedisUrl(6));
const KEY = newEncryptionKey();
const KEYS = Array.from({ length: 60 }, (_, index) => `run-${index}`);

describe.skipIf(!enabled)('Redis restarted mid-run (a Redis of its own on a spare port)', () => {
  // Append-only: a restart keeps every write Redis acknowledged.
  const redis = useFixture(() => startOwnRedis('aof'), 'all');
  const sandbox = useFixture(() => startSandbox(), 'all');
  let stores: RedisStores;
  let script: string;

  beforeAll(async () => {
    script = await compiledWorker('toolsteps-restart-workers');
  }, 120_000);

  afterAll(async () => {
    await stores?.close();
  });

  it('workers ride out the restart: every key is won once, its ticket created once, the token refreshed once', async () => {
    stores = await openRedisStores({
      redisUrl: redis.url,
      prefix: 'restart',
      env: { TOOLSTEPS_ENCRYPTION_KEY: KEY },
    });
    const now = Date.now();
    // Written as the workers read it: a store built on the master key, as
    // test/coordination/support/coordination-worker.ts builds it.
    const writer = new RedisConnectionStore(
      stores.coordinator,
      SecretBox.fromEnv({ TOOLSTEPS_ENCRYPTION_KEY: KEY }),
    );
    await writer.put(
      ticketingOAuthConnection(sandbox, 'restart-tickets', {
        expiresAt: now - 60_000,
        createdAt: now - 3_600_000,
      }),
    );
    const job: WorkerConfig = {
      redisUrl: redis.url,
      prefix: 'restart',
      connection: 'restart-tickets',
      mode: 'marks',
      keys: KEYS,
      concurrency: 2,
    };
    const env = { WORKER_CONFIG: JSON.stringify(job), TOOLSTEPS_ENCRYPTION_KEY: KEY };
    const workers = Array.from({ length: 3 }, () => startChild(script, env));
    const creates = () =>
      sandbox.server.requestLog.filter(
        (entry) => entry.method === 'POST' && entry.path.endsWith('/tickets.json'),
      );
    await waitFor(() => creates().length >= 10, 'the workers to be under way', 120_000);
    // Stop Redis mid-run (it writes its append-only log on the way down) and start it again on the same port.
    await redis.stop();
    const createdWhileDown = creates().length;
    await redis.restart();
    const results = await Promise.all(workers.map((item) => item.result));

    const won = results.flatMap((result) => result.won);
    const externalIds = creates().map(
      (entry) => (JSON.parse(entry.rawBody) as { ticket: { external_id: string } }).ticket.external_id,
    );
    const perKey = new Map<string, number>();
    for (const id of externalIds) perKey.set(id, (perKey.get(id) ?? 0) + 1);
    console.log(
      `[figures] redis restart: 3 workers, ${KEYS.length} keys, restart after ${createdWhileDown} tickets -> ${won.length} keys won, ${externalIds.length} tickets created, ${Math.max(...perKey.values())} max per key, ${sandbox.ticketing.oauth.grants.refresh_token} refresh(es), ${results.reduce((sum, result) => sum + result.failed, 0)} failed`,
    );
    expect(results.map((result) => result.errors)).toEqual([{}, {}, {}]);
    expect(won.sort()).toEqual([...KEYS].sort());
    expect(externalIds.sort()).toEqual([...KEYS].sort());
    expect(sandbox.ticketing.oauth.grants.refresh_token).toBe(1);
  }, 240_000);
});
