import { type Clock, systemClock } from '../model/clock.js';
import type { CoordinationStatus, Coordinator } from './coordinator.js';
import { LocalCoordinator } from './local-coordinator.js';

/** Where the coordination lives; every field is optional so one process alone needs no configuration. */
export interface CoordinationConfig {
  /** `redis://` or `rediss://` URL; default `TOOLSTEPS_REDIS_URL`. Unset: in-process coordination. */
  redisUrl?: string;
  /** Key prefix in Redis; default `TOOLSTEPS_REDIS_PREFIX`, else `toolsteps`. */
  prefix?: string;
  env?: NodeJS.ProcessEnv;
  /** The in-process coordinator's clock (tests). */
  clock?: Clock;
}

/** The Redis URL that configures coordination, from the options or the environment. */
export function configuredRedisUrl(config: CoordinationConfig = {}): string | undefined {
  const env = config.env ?? process.env;
  return config.redisUrl ?? (env.TOOLSTEPS_REDIS_URL?.trim() || undefined);
}

/**
 * The coordinator the configuration asks for: Redis when a URL is given
 * (ioredis is loaded only then), otherwise the in-process one, which keeps
 * today's single-process behaviour.
 */
export async function openCoordinator(config: CoordinationConfig = {}): Promise<Coordinator> {
  const url = configuredRedisUrl(config);
  if (!url) return new LocalCoordinator(config.clock ?? systemClock);
  const [{ connectRedis, redisWhere }, { RedisCoordinator }] = await Promise.all([
    import('../peers/load-ioredis.js'),
    import('./redis-coordinator.js'),
  ]);
  const env = config.env ?? process.env;
  // Commands issued in one tick share one socket write (and one read of their answers): a busy intake
  // sends each delivery's lookup, claim and done mark beside other deliveries', and a write apiece
  // cost more CPU than the commands. Order and answers are the same; nothing here blocks or subscribes.
  return new RedisCoordinator(await connectRedis(url, { enableAutoPipelining: true }), {
    prefix: config.prefix ?? (env.TOOLSTEPS_REDIS_PREFIX?.trim() || 'toolsteps'),
    where: redisWhere(url),
  });
}

/**
 * Which coordination is active, whether Redis answers and what it persists
 * across a restart: for `toolsteps doctor` and embedders' health checks.
 * Gives up on an absent Redis within a few seconds instead of waiting out
 * the reconnect policy.
 */
export async function describeCoordination(config: CoordinationConfig = {}): Promise<CoordinationStatus> {
  const url = configuredRedisUrl(config);
  if (!url) return new LocalCoordinator().status();
  const [{ connectRedis, redisWhere }, { RedisCoordinator }, { redisPersistence }] = await Promise.all([
    import('../peers/load-ioredis.js'),
    import('./redis-coordinator.js'),
    import('./redis-persistence.js'),
  ]);
  const client = await connectRedis(url, {
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 2000,
  });
  const coordinator = new RedisCoordinator(client, { where: redisWhere(url) });
  try {
    const status = await coordinator.status();
    return status.reachable ? { ...status, persistence: await redisPersistence(coordinator.client) } : status;
  } finally {
    client.disconnect();
  }
}
