import type { Coordinator } from '../src/coordination/coordinator.js';
import type { RedisCoordinator } from '../src/coordination/redis-coordinator.js';
import type { TenantId } from '../src/model/tenant-id.js';
import type { DedupeStore } from '../src/store/dedupe-store.js';
import type { PostgresScopedStores } from '../src/store/postgres/postgres-tenant-stores.js';
import type { TenantRekeyCounts } from '../src/store/redis/redis-tenant-stores.js';
import type { TenantStores } from '../src/store/tenant-stores.js';
import type { IntakeTenant } from '../src/triggers/intake/intake-tenants.js';
import { tenantCliStores } from './tenant-cli-stores.js';

/** What `cliStores` hands every command with TOOLSTEPS_DATABASE_URL (one of its `CliStores`). */
export interface PostgresCliStores {
  mode: 'postgres';
  tenant: TenantId;
  tenants: TenantStores;
  intakeTenant(tenant: TenantId): Promise<IntakeTenant | undefined>;
  connections: PostgresScopedStores['connections'];
  subscriptions: PostgresScopedStores['subscriptions'];
  dedupe: DedupeStore;
  audit: PostgresScopedStores['audit'];
  limits: PostgresScopedStores['limits'];
  coordinator?: Coordinator;
  redisUrl?: string;
  /** Re-wraps every tenant's data key with the current master key, and re-seals what a master key sealed. */
  rekey: () => Promise<TenantRekeyCounts>;
  close(): Promise<void>;
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
  tenant: TenantId,
): Promise<PostgresCliStores> {
  const { PostgresTenantStores } = await import('../src/store/postgres/postgres-tenant-stores.js');
  const backend = await PostgresTenantStores.open({ url: databaseUrl, env });
  const rekey = () => backend.rekey();
  if (redisUrl) {
    const { openCoordinator } = await import('../src/coordination/open-coordinator.js');
    const coordinator = (await openCoordinator({ env, redisUrl })) as RedisCoordinator;
    const close = async () => {
      await Promise.allSettled([backend.close(), coordinator.close()]);
    };
    const stores = tenantCliStores(backend, tenant, (one) => coordinator.forTenant(one));
    return { mode: 'postgres', ...stores, rekey, coordinator, redisUrl, close };
  }
  const { defaultToolstepsHome } = await import('../src/disk/toolsteps-home.js');
  // Without Redis, this host's files keep each tenant's dedupe records, as the file stores do.
  const { FileTenantStores } = await import('../src/store/files/file-tenant-stores.js');
  const files = new FileTenantStores(defaultToolstepsHome(env));
  const stores = tenantCliStores(backend, tenant, (one) => files.forTenant(one).dedupe);
  return { mode: 'postgres', ...stores, rekey, close: () => backend.close() };
}
