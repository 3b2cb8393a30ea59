import type { Coordinator } from '../src/coordination/coordinator.js';
import type { RedisCoordinator } from '../src/coordination/redis-coordinator.js';
import type { DedupeStore } from '../src/store/dedupe/dedupe-store.js';
import type { PostgresScopedStores } from '../src/store/postgres/postgres-tenant-stores.js';
import type { RekeyCounts } from '../src/store/sealed/encrypted-records.js';
import { DEFAULT_TENANT } from '../src/tenants/tenant-id.js';

/** What `cliStores` hands every command with TOOLSTEPS_DATABASE_URL (one of its `CliStores`). */
export interface PostgresCliStores {
  mode: 'postgres';
  connections: PostgresScopedStores['connections'];
  subscriptions: PostgresScopedStores['subscriptions'];
  dedupe: DedupeStore;
  coordinator?: Coordinator;
  redisUrl?: string;
  rekey: () => Promise<Record<'connections' | 'subscriptions', RekeyCounts>>;
  close(): Promise<void>;
}

/** Adds one tenant's rekey counts to the running total. */
function addCounts(total: RekeyCounts, more: RekeyCounts): RekeyCounts {
  return {
    rekeyed: total.rekeyed + more.rekeyed,
    total: total.total + more.total,
    unsealed: [...total.unsealed, ...more.unsealed],
  };
}

/**
 * With TOOLSTEPS_DATABASE_URL: connections and subscriptions in Postgres
 * (the schema checked first), and, with TOOLSTEPS_REDIS_URL too, Redis for
 * what coordinates workers (locks of quotas, dedupe, the queue); without
 * Redis, dedupe stays in the file store of this host.
 */
export async function openPostgresCliStores(
  databaseUrl: string,
  redisUrl: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<PostgresCliStores> {
  const { PostgresTenantStores } = await import('../src/store/postgres/postgres-tenant-stores.js');
  const backend = await PostgresTenantStores.open({ url: databaseUrl, env });
  const view = backend.forTenant(DEFAULT_TENANT);
  const rekey = async () => {
    const empty: RekeyCounts = { rekeyed: 0, total: 0, unsealed: [] };
    const counts = { connections: empty, subscriptions: empty };
    for (const { tenant } of await backend.tenants()) {
      const stores = backend.forTenant(tenant);
      counts.connections = addCounts(counts.connections, await stores.connections.rekey());
      counts.subscriptions = addCounts(counts.subscriptions, await stores.subscriptions.rekey());
    }
    return counts;
  };
  const shared = {
    mode: 'postgres' as const,
    connections: view.connections,
    subscriptions: view.subscriptions,
    rekey,
  };
  if (redisUrl) {
    const { openCoordinator } = await import('../src/coordination/open-coordinator.js');
    const coordinator = (await openCoordinator({ env, redisUrl })) as RedisCoordinator;
    const close = async () => {
      await Promise.allSettled([backend.close(), coordinator.close()]);
    };
    return { ...shared, coordinator, dedupe: coordinator, redisUrl, close };
  }
  const [{ FileDedupeStore }, { defaultToolstepsHome }] = await Promise.all([
    import('../src/store/dedupe/file-dedupe-store.js'),
    import('../src/files/toolsteps-home.js'),
  ]);
  return { ...shared, dedupe: new FileDedupeStore(defaultToolstepsHome(env)), close: () => backend.close() };
}
