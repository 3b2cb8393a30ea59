import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScaledClock, type ScaledClockSettings, startSandbox } from '../../sandbox/index.js';
import { openCoordinator } from '../../src/coordination/open-coordinator.js';
import type { RedisCoordinator } from '../../src/coordination/redis-coordinator.js';
import type { Clock } from '../../src/model/clock.js';
import { systemClock } from '../../src/model/clock.js';
import { RedisConnectionStore } from '../../src/store/redis/redis-connection-store.js';
import { SecretBox } from '../../src/store/sealed/secret-box.js';
import { clearTestKeys, redisSuiteEnabled, testPrefix, testRedisUrl } from '../support/test-redis.js';
import { ticketingOAuthConnection } from '../support/ticketing-oauth-connection.js';
import type { WorkerConfig } from './support/coordination-worker.js';
import { compiledWorker, newEncryptionKey, startChild, waitFor } from './support/worker-processes.js';

const REDIS_URL = testRedisUrl(3);
const PREFIX = testPrefix('quota');
const enabled = await redisSuiteEnabled(REDIS_URL);
const KEY = newEncryptionKey();
/** Sandbox time starts on a minute boundary, so 3 minutes are exactly 3 of the provider's windows. */
const START_AT = Date.UTC(2026, 5, 1, 12, 0, 0);
const MINUTES = 3;
const QUOTA_PER_MINUTE = 100;
/** 3 minutes of provider time in 30 s of real time. */
const SPEED = 6;

describe.skipIf(!enabled)('one rate limit shared by worker processes (Redis)', () => {
  let script: string;
  beforeAll(async () => {
    await clearTestKeys(REDIS_URL, PREFIX);
    script = await compiledWorker('toolsteps-quota-workers');
  }, 120_000);
  afterAll(() => clearTestKeys(REDIS_URL, PREFIX));

  it('4 workers sharing a 100-per-minute quota for 3 minutes: no failed call, at most 1% 429, at least 97% used', async () => {
    // The sandbox reads the same scaled time as the workers once the run starts; before, it stands still.
    let scaled: ScaledClock | undefined;
    const clock: Clock = {
      now: () => scaled?.now() ?? START_AT - 5_000,
      sleep: (ms, signal) => (scaled ?? systemClock).sleep(ms, signal),
    };
    const sandbox = await startSandbox({ clock, ticketing: { requestsPerMinute: QUOTA_PER_MINUTE } });
    const verdicts: { allowed: boolean; at: number }[] = [];
    const limiter = sandbox.ticketing.limiter;
    const consume = limiter.consume.bind(limiter);
    limiter.consume = (key) => {
      const verdict = consume(key);
      verdicts.push({ allowed: verdict.allowed, at: clock.now() });
      if (process.env.QUOTA_DEBUG)
        console.log('V', clock.now() - START_AT, verdict.allowed, verdict.remaining);
      return verdict;
    };
    const prefix = `${PREFIX}-run`;
    const coordinator = (await openCoordinator({ redisUrl: REDIS_URL, prefix })) as RedisCoordinator;
    try {
      const store = new RedisConnectionStore(
        coordinator,
        SecretBox.fromEnv({ TOOLSTEPS_ENCRYPTION_KEY: KEY }),
      );
      await store.put(ticketingOAuthConnection(sandbox, 'quota-tickets', { now: clock.now() }));
      const job: WorkerConfig = {
        redisUrl: REDIS_URL,
        prefix,
        connection: 'quota-tickets',
        mode: 'until',
        untilAt: START_AT + MINUTES * 60_000,
        concurrency: 6,
        goKey: 'go',
        fromAt: START_AT,
      };
      const env = { WORKER_CONFIG: JSON.stringify(job), TOOLSTEPS_ENCRYPTION_KEY: KEY };
      const workers = Array.from({ length: 4 }, () => startChild(script, env));
      await waitFor(() => workers.every((item) => item.output().includes('ready')), 'every worker to load');
      const settings: ScaledClockSettings = { startAt: START_AT, realStart: Date.now() + 1000, speed: SPEED };
      scaled = new ScaledClock(settings);
      await coordinator.setValue('go', JSON.stringify(settings), 600_000);
      const results = await Promise.all(workers.map((item) => item.result));

      const end = START_AT + MINUTES * 60_000;
      const inRun = verdicts.filter((verdict) => verdict.at < end);
      const used = inRun.filter((verdict) => verdict.allowed).length;
      const refused = verdicts.filter((verdict) => !verdict.allowed).length;
      const failedCalls = results.reduce((sum, result) => sum + result.failed, 0);
      const quota = MINUTES * QUOTA_PER_MINUTE;
      console.log(
        `[figures] shared quota: 4 workers, ${MINUTES} min at ${QUOTA_PER_MINUTE}/min (x${SPEED} clock) -> ${verdicts.length} requests, ${refused} answered 429 (${((100 * refused) / verdicts.length).toFixed(2)}%), ${used}/${quota} quota used (${((100 * used) / quota).toFixed(1)}%), ${failedCalls} failed calls, ${results.reduce((sum, result) => sum + result.ok, 0)} succeeded`,
      );
      expect(results.map((result) => result.errors)).toEqual([{}, {}, {}, {}]);
      expect(failedCalls).toBe(0);
      expect(refused / verdicts.length).toBeLessThanOrEqual(0.01);
      expect(used / quota).toBeGreaterThanOrEqual(0.97);
    } finally {
      await coordinator.close();
      await sandbox.close();
    }
  }, 240_000);
});
