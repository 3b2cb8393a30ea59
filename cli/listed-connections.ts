import type { StoredConnectionView } from '../src/connection/connection-state.js';
import type { RedisCoordinator } from '../src/coordination/redis-coordinator.js';
import { DEFAULT_TENANT } from '../src/model/tenant-id.js';
import { cliStores } from './cli-stores.js';
import { cliTenant } from './cli-tenant.js';

export interface ListedConnections {
  connections: StoredConnectionView[];
  /**
   * False when they were read from Redis or Postgres without TOOLSTEPS_ENCRYPTION_KEY:
   * public parts only, so whether each can refresh is not known.
   */
  secretsRead: boolean;
}

/**
 * The stored connections as `connections list` shows them. Listing shows no
 * secret, so it needs no key: the file store has none to ask for, and with
 * Redis or Postgres and no TOOLSTEPS_ENCRYPTION_KEY the public parts are read alone. A
 * key that is set is used (and a malformed or wrong one still fails), so a
 * worker's misconfigured key shows up here before a run trips on it.
 */
export async function listedConnections(env: NodeJS.ProcessEnv = process.env): Promise<ListedConnections> {
  const { configuredRedisUrl, openCoordinator } = await import('../src/coordination/open-coordinator.js');
  const { configuredDatabaseUrl } = await import('../src/store/postgres/database-url.js');
  const databaseUrl = configuredDatabaseUrl(env);
  if (databaseUrl && !env.TOOLSTEPS_ENCRYPTION_KEY?.trim()) {
    const { PostgresTenantStores } = await import('../src/store/postgres/postgres-tenant-stores.js');
    const backend = await PostgresTenantStores.open({ url: databaseUrl, env, keyless: true });
    try {
      return {
        connections: await backend.forTenant(DEFAULT_TENANT).connections.listWithoutSecrets(),
        secretsRead: false,
      };
    } finally {
      await backend.close();
    }
  }
  if (!databaseUrl && configuredRedisUrl({ env }) && !env.TOOLSTEPS_ENCRYPTION_KEY?.trim()) {
    const [coordinator, { RedisConnectionStore }] = await Promise.all([
      openCoordinator({ env }) as Promise<RedisCoordinator>,
      import('../src/store/redis/redis-connection-store.js'),
    ]);
    try {
      const tenant = coordinator.forTenant(cliTenant());
      return { connections: await RedisConnectionStore.listWithoutSecrets(tenant), secretsRead: false };
    } finally {
      await coordinator.close();
    }
  }
  return { connections: await (await cliStores(env)).connections.list(), secretsRead: true };
}
