import { type CoordinationConfig, openCoordinator } from '../coordination/open-coordinator.js';
import type { RedisCoordinator } from '../coordination/redis-coordinator.js';
import {
  RedisConnectionStore,
  type RedisConnectionStoreOptions,
} from './connections/redis-connection-store.js';
import { SecretBox } from './sealed/secret-box.js';
import { RedisSubscriptionStore } from './subscriptions/redis-subscription-store.js';

/** Everything several workers share through one Redis. */
export interface RedisStores {
  coordinator: RedisCoordinator;
  connections: RedisConnectionStore;
  subscriptions: RedisSubscriptionStore;
  close(): Promise<void>;
}

/**
 * The coordinator and the encrypted connection and subscription stores over
 * one Redis connection. The encryption key is checked first, so a missing
 * or malformed key fails before anything connects.
 * @throws EncryptionKeyError when `TOOLSTEPS_ENCRYPTION_KEY` is missing or malformed.
 */
export async function openRedisStores(
  config: CoordinationConfig & {
    redisUrl: string;
    box?: SecretBox;
    connections?: RedisConnectionStoreOptions;
  },
): Promise<RedisStores> {
  const box = config.box ?? SecretBox.fromEnv(config.env ?? process.env);
  const coordinator = (await openCoordinator(config)) as RedisCoordinator;
  return {
    coordinator,
    connections: new RedisConnectionStore(coordinator, box, config.connections),
    subscriptions: new RedisSubscriptionStore(coordinator, box),
    close: () => coordinator.close(),
  };
}
