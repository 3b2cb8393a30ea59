import { missingPeer } from './optional-peer.js';
import { urlWithoutCredentials } from './url-without-credentials.js';

/** The semver range of ioredis this package is written against. */
export const IOREDIS_RANGE = '^5.11.1';

/**
 * ioredis's own types, for the modules that load it. Exported signatures use
 * the structural `RedisClient` of redis-client.ts instead: the published
 * declarations must compile without ioredis installed.
 */
export type IoRedisClient = import('ioredis').Redis;
export type RedisClientOptions = import('ioredis').RedisOptions;

/**
 * Connects to Redis with ioredis, an optional peer dependency imported only
 * here, when Redis coordination is configured. While Redis is away the
 * client reconnects (backing off up to 2 s) and holds commands for about
 * 20 tries (some 20 s) before they fail, so a restart is ridden out and a
 * long outage fails calls instead of letting each worker fall back to
 * rules that hold only for itself.
 */
export async function connectRedis(url: string, options: RedisClientOptions = {}): Promise<IoRedisClient> {
  const { Redis } = await import('ioredis').catch(
    missingPeer('ioredis', IOREDIS_RANGE, 'Coordination over Redis (TOOLSTEPS_REDIS_URL)'),
  );
  const client = new Redis(url, {
    maxRetriesPerRequest: 20,
    retryStrategy: (times: number) => Math.min(times * 100, 2000),
    connectionName: 'toolsteps',
    ...options,
  });
  // Without a listener, ioredis prints every failed reconnect; the commands that need Redis report it.
  client.on('error', () => undefined);
  return client;
}

/** A Redis URL with any password taken out, for messages and the doctor. */
export function redisWhere(url: string): string {
  return urlWithoutCredentials(url, 'TOOLSTEPS_REDIS_URL');
}
