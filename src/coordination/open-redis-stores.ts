import { DEFAULT_TENANT } from '../model/tenant-id.js';
import type {
  RedisConnectionStore,
  RedisConnectionStoreOptions,
} from '../store/redis/redis-connection-store.js';
import type { RedisSubscriptionStore } from '../store/redis/redis-subscription-store.js';
import { RedisTenantStores } from '../store/redis/redis-tenant-stores.js';
import { SecretBox } from '../store/sealed/secret-box.js';
import { type CoordinationConfig, openCoordinator } from './open-coordinator.js';
import type { RedisCoordinator } from './redis-coordinator.js';

/** Everything several workers share through one Redis. */
export interface RedisStores {
  coordinator: RedisCoordinator;
  /** Every tenant's stores (`tenants.forTenant(id)`); `connections` and `subscriptions` are the default tenant's. */
  tenants: RedisTenantStores<RedisCoordinator>;
  connections: RedisConnectionStore;
  subscriptions: RedisSubscriptionStore;
  /** Closes the one Redis connection all of them share, so the process can exit. */
  close(): Promise<void>;
}

/**
 * The coordinator and the encrypted connection and subscription stores over
 * one Redis connection, for every tenant (`tenants`), each tenant's secrets
 * sealed with its own data key under the master key. The encryption key is
 * checked first, so a missing or malformed key fails before anything connects.
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
  const tenants = new RedisTenantStores(coordinator, box, config.connections);
  const view = tenants.forTenant(DEFAULT_TENANT);
  return {
    coordinator,
    tenants,
    connections: view.connections,
    subscriptions: view.subscriptions,
    close: () => coordinator.close(),
  };
}
