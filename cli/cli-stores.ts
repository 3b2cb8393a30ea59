import type { Coordinator } from '../src/coordination/coordinator.js';
import type { TenantId } from '../src/model/tenant-id.js';
import type { AuditTrail } from '../src/store/audit/audit-trail.js';
import type { ConnectionStore } from '../src/store/connection-store.js';
import type { DedupeStore } from '../src/store/dedupe-store.js';
import type { TenantLimitStore } from '../src/store/limit-store.js';
import type { RekeyOptions } from '../src/store/redis/encrypted-records.js';
import type { TenantRekeyCounts } from '../src/store/redis/redis-tenant-stores.js';
import type { SubscriptionStore } from '../src/store/subscription-store.js';
import type { TenantStores } from '../src/store/tenant-stores.js';
import type { IntakeTenant } from '../src/triggers/intake/intake-tenants.js';
import { cliTenant } from './cli-tenant.js';
import { tenantCliStores } from './tenant-cli-stores.js';

/**
 * Where the CLI keeps connections, subscriptions and dedupe records, and
 * what coordinates its workers. `connections`, `subscriptions` and `dedupe`
 * are the run's tenant's (`--tenant`, `TOOLSTEPS_TENANT`); `tenants` holds
 * every tenant's, for the commands that serve or manage them all.
 */
export interface CliStores {
  /** Where connections and subscriptions live: files, Redis, or Postgres (TOOLSTEPS_DATABASE_URL). */
  mode: 'local' | 'redis' | 'postgres';
  tenant: TenantId;
  connections: ConnectionStore;
  subscriptions: SubscriptionStore;
  dedupe: DedupeStore;
  /** The run's tenant's audit trail and limits. */
  audit: AuditTrail;
  limits: TenantLimitStore;
  tenants: TenantStores;
  /** A tenant's subscriptions and dedupe records, for an intake serving every tenant's hooks; undefined for one with no subscription. */
  intakeTenant(tenant: TenantId): Promise<IntakeTenant | undefined>;
  /** Set with Redis, shared by every tenant: a runtime keeps to its tenant's keys in it (`forTenant`). */
  coordinator?: Coordinator;
  /** With Redis, the URL the worker queue connects to. */
  redisUrl?: string;
  /** With Redis or Postgres: re-wraps every tenant's data key with the current master key, and re-seals what a master key sealed. */
  rekey?: (options: RekeyOptions) => Promise<TenantRekeyCounts>;
  close(): Promise<void>;
}

let opened: Promise<CliStores> | undefined;

async function openRedis(redisUrl: string, env: NodeJS.ProcessEnv, tenant: TenantId): Promise<CliStores> {
  const { openRedisStores } = await import('../src/coordination/open-redis-stores.js');
  const { coordinator, tenants, close } = await openRedisStores({ redisUrl, env });
  return {
    mode: 'redis',
    ...tenantCliStores(tenants, tenant, (one) => tenants.forTenant(one).coordinator),
    coordinator,
    redisUrl,
    rekey: (options) => tenants.rekey(options),
    close,
  };
}

async function open(env: NodeJS.ProcessEnv): Promise<CliStores> {
  const tenant = cliTenant();
  const { configuredRedisUrl } = await import('../src/coordination/open-coordinator.js');
  const redisUrl = configuredRedisUrl({ env });
  const { configuredDatabaseUrl } = await import('../src/store/postgres/database-url.js');
  const databaseUrl = configuredDatabaseUrl(env);
  if (databaseUrl) {
    const { openPostgresCliStores } = await import('./postgres-cli-stores.js');
    return openPostgresCliStores(databaseUrl, redisUrl, env, tenant);
  }
  if (redisUrl) return openRedis(redisUrl, env, tenant);
  const [{ FileTenantStores }, { defaultToolstepsHome }] = await Promise.all([
    import('../src/store/files/file-tenant-stores.js'),
    import('../src/disk/toolsteps-home.js'),
  ]);
  const tenants = new FileTenantStores(defaultToolstepsHome(env));
  return {
    mode: 'local',
    ...tenantCliStores(tenants, tenant, (one) => tenants.forTenant(one).dedupe),
    close: async () => {},
  };
}

/**
 * The stores every command uses, opened once per process: files under
 * $TOOLSTEPS_HOME by default, or, with TOOLSTEPS_REDIS_URL, Redis shared by
 * every worker (secrets sealed with each tenant's data key, itself sealed
 * with TOOLSTEPS_ENCRYPTION_KEY), or, with TOOLSTEPS_DATABASE_URL,
 * connections and subscriptions in Postgres beside Redis, which still
 * coordinates.
 */
export function cliStores(env: NodeJS.ProcessEnv = process.env): Promise<CliStores> {
  opened ??= open(env);
  return opened;
}

/** Closes what `cliStores` opened (the Redis connection), so the process can end. */
export async function closeCliStores(): Promise<void> {
  const stores = await opened?.catch(() => undefined);
  opened = undefined;
  await stores?.close();
}
