import { Redis } from 'ioredis';

/**
 * The Redis the tests use: `TOOLSTEPS_TEST_REDIS_URL`, else the machine's
 * own at 127.0.0.1:6379. Each suite takes a database of its own (`db`) and
 * keys under a prefix of its own run (`testPrefix`), and clears them: on a
 * machine where several checkouts run the suite at once, a FLUSHDB would
 * wipe another run's keys mid-test.
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

/** A key prefix no other run of the suite uses. */
export function testPrefix(name: string): string {
  return `${name}-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
}

/** Deletes every key whose name starts with `prefix` in the suite's database. */
export async function clearTestKeys(url: string, prefix: string): Promise<void> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  client.on('error', () => undefined);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length) await client.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}

/** A Redis suite's place: its database's URL, a key prefix of its own run, and whether it runs here. */
export async function redisSuite(db: number, name: string) {
  const url = testRedisUrl(db);
  return { url, prefix: testPrefix(name), enabled: await redisSuiteEnabled(url) };
}
