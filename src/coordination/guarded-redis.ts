import type { RedisClient } from '../peers/redis-client.js';
import { redisFailure } from './redis-failure.js';

const GUARDED = Symbol('toolsteps.guardedRedis');

type Method = (...args: unknown[]) => unknown;

/**
 * The client every Redis-backed part of toolsteps talks through (the
 * coordinator, and through it the connection, subscription and dedupe
 * stores, locks, quotas, budgets and idempotency records): the same client,
 * except that a command that fails rejects with `redisFailure`'s error
 * instead of the client's own (`MaxRetriesPerRequestError`, a closed
 * connection, a reply timeout, a script error). Every method is guarded,
 * scripts defined later (`defineCommand`) included, so a call site added
 * tomorrow cannot let a raw error out. What a method returns that is not a
 * promise (a pipeline, a duplicate) is the client's own.
 */
export function guardRedis(client: RedisClient): RedisClient {
  if ((client as unknown as Record<symbol, unknown>)[GUARDED]) return client;
  const guarded = new Map<PropertyKey, { original: Method; method: Method }>();
  const fail = (error: unknown): never => {
    throw redisFailure(client, error);
  };
  return new Proxy(client, {
    get(target, property) {
      if (property === GUARDED) return true;
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const known = guarded.get(property);
      if (known?.original === value) return known.method;
      const original = value as Method;
      const method: Method = (...args) => {
        const result = original.apply(target, args);
        return result instanceof Promise ? result.catch(fail) : result;
      };
      guarded.set(property, { original, method });
      return method;
    },
  });
}
