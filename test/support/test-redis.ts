import { Redis } from 'ioredis';

/**
 * The Redis the tests use: `TOOLSTEPS_TEST_REDIS_URL`, else the machine's
 * own at 127.0.0.1:6379. Each suite takes a database of its own (`db`) and
 * flushes it, so suites running at once never see each other's keys.
 */
export function testRedisUrl(db: number): string {
  const base = new URL(process.env.TOOLSTEPS_TEST_REDIS_URL || 'redis://127.0.0.1:6379');
  base.pathname = `/${db}`;
  return base.toString();
}

/** Whether Redis answers at all; tries once, for a second. */
export async function redisAnswers(url: string): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/**
 * Whether a Redis suite runs here. Without Redis it is skipped on a
 * developer's machine, but under CI (`CI` set) it runs and fails, so a CI
 * that lost its Redis never passes by skipping.
 */
export async function redisSuiteEnabled(url: string): Promise<boolean> {
  return Boolean(process.env.CI) || (await redisAnswers(url));
}

/** Empties the suite's database. */
export async function flushTestDb(url: string): Promise<void> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  client.on('error', () => undefined);
  try {
    await client.flushdb();
  } finally {
    client.disconnect();
  }
}
