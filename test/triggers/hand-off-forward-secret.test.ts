import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRedisStores } from '../../src/coordination/open-redis-stores.js';
import { everyRedisValue, newEncryptionKey, waitFor } from '../coordination/support/worker-processes.js';
import { clearTestKeys, redisSuiteEnabled, testPrefix, testRedisUrl } from '../support/test-redis.js';
import { AgentPlatform } from './support/agent-platform.js';
import { useCliListeners } from './support/cli-listeners.js';
import { deliverOnce, SUBSCRIPTION } from './support/signed-deliveries.js';
import { subscriptionFor } from './trigger-fixtures.js';

/**
 * A forward URL holding a token (issue 22, item 10), with `toolsteps listen`
 * and `worker` as the package ships them, in child processes. Split from
 * hand-off-faults.test.ts so its wait for the queue's retries runs beside the others.
 */

const KEY = newEncryptionKey();
const SHARED_REDIS = testRedisUrl(9);
const sharedRedis = await redisSuiteEnabled(SHARED_REDIS);
const { toolsteps, listen } = useCliListeners('toolsteps-hand-off-forward-secret');

describe.skipIf(!sharedRedis)('a forward URL holding a token (listen --queue, worker, dead letters)', () => {
  const prefix = testPrefix('forward-secret');
  const SECRET = 's3cret';
  let platform: AgentPlatform;

  beforeAll(async () => {
    await clearTestKeys(SHARED_REDIS, prefix);
    const opened = await openRedisStores({
      redisUrl: SHARED_REDIS,
      prefix,
      env: { TOOLSTEPS_ENCRYPTION_KEY: KEY },
    });
    await opened.subscriptions.put(subscriptionFor('ticketing.ticket_status_changed', { id: SUBSCRIPTION }));
    await opened.close();
    platform = new AgentPlatform();
    platform.onArrival = async () => 'fail';
  });

  afterAll(async () => {
    await platform.close();
    await clearTestKeys(SHARED_REDIS, prefix);
  });

  it('never reaches Redis (jobs, their failures, the event stream, dead letters), logs or errors', async () => {
    const env = {
      TOOLSTEPS_REDIS_URL: SHARED_REDIS,
      TOOLSTEPS_REDIS_PREFIX: prefix,
      TOOLSTEPS_ENCRYPTION_KEY: KEY,
    };
    const target = await platform.url(`/run?token=${SECRET}`);
    const queued = await listen(env, '--queue');
    const direct = await listen(env, '--forward-to', target);
    const worker = toolsteps(env, 'worker', '--forward-to', target, '--attempts', '2', '--json');
    await waitFor(() => worker.stderr.includes('"working"'), 'the worker to start', 60_000);

    expect(await deliverOnce(queued.base, 'evt-queued')).toBe('200 started');
    expect(await deliverOnce(direct.base, 'evt-direct')).toBe('500 handler_failed');
    // The queue's own retries (five, backing off from 1 s) run before the event goes dead.
    await waitFor(() => worker.stderr.includes('"dead"'), 'the event to reach the dead-letter queue', 60_000);

    const stored = await everyRedisValue(SHARED_REDIS, prefix);
    const dead = stored.filter((text) => text.includes('toolsteps-events-dead'));
    const failures = stored.filter((text) => text.includes('answered 500'));
    console.log(
      `[figures] forward URL with a token: ${platform.arrived.length} forwards tried, ${stored.length} keys and values under the prefix, ${dead.length} dead-letter keys, ${failures.length} values naming the failure`,
    );
    expect(platform.arrived).toContain('evt-queued');
    expect(dead.length).toBeGreaterThan(0);
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.join('\n')).toContain('http://127.0.0.1:');
    for (const text of stored) expect(text).not.toContain(SECRET);
    for (const item of [queued.process, direct.process, worker]) {
      expect(item.stdout).not.toContain(SECRET);
      expect(item.stderr).not.toContain(SECRET);
    }
  }, 120_000);
});
