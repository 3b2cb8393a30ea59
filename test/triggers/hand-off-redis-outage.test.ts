import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRedisStores } from '../../src/coordination/open-redis-stores.js';
import { newEncryptionKey, waitFor } from '../coordination/support/worker-processes.js';
import { type OwnRedis, startOwnRedis } from '../support/own-redis.js';
import { redisSuiteEnabled, testPrefix, testRedisUrl } from '../support/test-redis.js';
import { AgentPlatform } from './support/agent-platform.js';
import { useCliListeners } from './support/cli-listeners.js';
import { deliverAsProvider, deliverOnce, SUBSCRIPTION } from './support/signed-deliveries.js';
import { subscriptionFor } from './trigger-fixtures.js';

/**
 * Redis lost right after a hand-off succeeded (issue 22, item 12), with
 * `toolsteps listen` as the package ships it, in a child process. Split
 * from hand-off-faults.test.ts so its wait for Redis runs beside the others.
 */

const KEY = newEncryptionKey();
const sharedRedis = await redisSuiteEnabled(testRedisUrl(9));
const { listen } = useCliListeners('toolsteps-hand-off-redis-outage');

describe.skipIf(!sharedRedis)('Redis lost right after a hand-off succeeded (a Redis of its own)', () => {
  let redis: OwnRedis;
  let platform: AgentPlatform;
  const prefix = testPrefix('outage');
  const stores = () =>
    openRedisStores({ redisUrl: redis.url, prefix, env: { TOOLSTEPS_ENCRYPTION_KEY: KEY } });

  async function putSubscription(): Promise<void> {
    const opened = await stores();
    await opened.subscriptions.put(subscriptionFor('ticketing.ticket_status_changed', { id: SUBSCRIPTION }));
    await opened.close();
  }

  beforeAll(async () => {
    // Keeping nothing on disk: a restart loses every key, so only the listener itself can remember
    // that the event was started.
    redis = await startOwnRedis('none');
    platform = new AgentPlatform();
  }, 60_000);

  afterAll(async () => {
    await redis.close();
    await platform.close();
  });

  it('the event starts exactly once: the done mark is retried until Redis is back, never released', async () => {
    await putSubscription();
    const env = {
      TOOLSTEPS_REDIS_URL: redis.url,
      TOOLSTEPS_REDIS_PREFIX: prefix,
      TOOLSTEPS_ENCRYPTION_KEY: KEY,
    };
    const listener = await listen(env, '--forward-to', await platform.url());
    // The platform takes the event, and Redis goes away before the 2xx reaches the listener.
    platform.onArrival = async () => {
      await redis.kill();
      return 'answer';
    };
    const first = deliverOnce(listener.base, 'evt-outage');
    await waitFor(() => platform.completed.includes('evt-outage'), 'the hand-off to succeed');
    platform.onArrival = async () => 'answer';
    // Longer than the Redis client holds a command (about 21 s): the first try to mark it done fails.
    await sleep(25_000);
    await redis.restart();
    await putSubscription(); // the restart lost it with everything else
    const firstAnswer = await first;
    const answers = await deliverAsProvider(listener.base, 'evt-outage', 30_000);
    console.log(
      `[figures] Redis killed after the hand-off, down 25 s, restarted empty: first answer ${firstAnswer}; retries ${answers.join(', ')}; runs ${platform.runs('evt-outage')}`,
    );
    expect(firstAnswer).toBe('200 started');
    expect(answers.at(-1)).toBe('200 duplicate');
    expect(platform.runs('evt-outage')).toBe(1);
    expect(platform.arrived.filter((id) => id === 'evt-outage')).toHaveLength(1);
  }, 150_000);
});
