import type { RedisCoordinator } from '../../src/coordination/redis-coordinator.js';
import { cliTenant } from '../cli-tenant.js';
import { checkConnectionStates } from './connection-states.js';
import { checkCoordinationMode } from './coordination-mode.js';
import { checkDatabaseStore } from './database-store.js';
import type { DoctorCheck } from './doctor-check.js';
import { checkNodeVersion } from './node-version.js';
import { checkPendingRevocations, type PendingRevocationView } from './pending-revocations.js';
import { checkPlan } from './plan.js';
import { checkProxySettings } from './proxy-settings.js';
import { checkStorePermissions } from './store-permissions.js';

/** A check that threw (an unreadable store, a corrupt file) is a failed check, not a crashed doctor. */
async function settled(name: string, check: () => DoctorCheck | Promise<DoctorCheck>): Promise<DoctorCheck> {
  try {
    return await check();
  } catch (error) {
    return {
      name,
      status: 'fail',
      summary: error instanceof Error ? error.message : String(error),
      details: [],
    };
  }
}

/**
 * Where the connections live: the file store, or with TOOLSTEPS_REDIS_URL the
 * shared Redis store (with TOOLSTEPS_DATABASE_URL, Postgres), read only once
 * the coordination (database) check saw it answer
 * (a Redis that is down would hold the read for its whole reconnect budget),
 * and read as `connections list` reads them: without TOOLSTEPS_ENCRYPTION_KEY,
 * their public fields alone.
 */
async function connectionsCheck(
  env: NodeJS.ProcessEnv,
  home: string,
  coordination: DoctorCheck,
  database: DoctorCheck,
): Promise<DoctorCheck> {
  const [{ FileTenantStores }, { cliRegistry }] = await Promise.all([
    import('../../src/store/files/file-tenant-stores.js'),
    import('../cli-context.js'),
  ]);
  const { configuredRedisUrl } = await import('../../src/coordination/open-coordinator.js');
  const { configuredDatabaseUrl } = await import('../../src/store/postgres/database-url.js');
  const inDatabase = Boolean(configuredDatabaseUrl(env));
  if (!inDatabase && !configuredRedisUrl({ env })) {
    const store = new FileTenantStores(home).forTenant(cliTenant()).connections;
    return checkConnectionStates(store, await cliRegistry());
  }
  const source = inDatabase ? database : coordination;
  if (source.status === 'fail') {
    return {
      name: 'connections',
      status: 'fail',
      summary: `not read: they live in ${inDatabase ? 'Postgres' : 'Redis'}, which does not answer or needs a migration (see ${source.name})`,
      details: [],
    };
  }
  const { listedConnections } = await import('../listed-connections.js');
  const { connections, secretsRead } = await listedConnections(env);
  const check = await checkConnectionStates({ list: async () => connections }, await cliRegistry());
  if (secretsRead) return check;
  const unread = 'read without TOOLSTEPS_ENCRYPTION_KEY: public fields only, secrets not opened';
  return { ...check, details: [...check.details, unread] };
}

/**
 * The pending revocations where the connections live, read as the
 * connections are: in Redis without TOOLSTEPS_ENCRYPTION_KEY their public
 * parts alone (all doctor shows); in Postgres without it, not read.
 */
async function revocationsCheck(
  env: NodeJS.ProcessEnv,
  home: string,
  coordination: DoctorCheck,
  database: DoctorCheck,
): Promise<DoctorCheck> {
  const { configuredRedisUrl, openCoordinator } = await import('../../src/coordination/open-coordinator.js');
  const { configuredDatabaseUrl } = await import('../../src/store/postgres/database-url.js');
  const inDatabase = Boolean(configuredDatabaseUrl(env));
  if (!inDatabase && !configuredRedisUrl({ env })) {
    const { FileTenantStores } = await import('../../src/store/files/file-tenant-stores.js');
    return checkPendingRevocations(() => new FileTenantStores(home).pendingRevocations.list());
  }
  const source = inDatabase ? database : coordination;
  const keyed = Boolean(env.TOOLSTEPS_ENCRYPTION_KEY?.trim());
  if (source.status === 'fail' || (inDatabase && !keyed)) {
    const why = source.status === 'fail' ? `see ${source.name}` : 'set TOOLSTEPS_ENCRYPTION_KEY';
    return {
      name: 'revocations',
      status: 'info',
      summary: `pending revocations not read (${why})`,
      details: [],
    };
  }
  if (keyed) {
    const { cliStores } = await import('../cli-stores.js');
    return checkPendingRevocations(
      async () => (await (await cliStores(env)).tenants.pendingRevocations?.list()) ?? [],
    );
  }
  const { listPublicRecords } = await import('../../src/store/redis/public-records.js');
  const coordinator = (await openCoordinator({ env })) as RedisCoordinator;
  try {
    const parts = await listPublicRecords(coordinator, 'revoke', 'pending revocation');
    return await checkPendingRevocations(async () => parts as unknown as PendingRevocationView[]);
  } finally {
    await coordinator.close();
  }
}

/** Every check of `toolsteps doctor`, in the order they are printed. One file per check, under doctor/. */
export async function runDoctor(env: NodeJS.ProcessEnv = process.env): Promise<DoctorCheck[]> {
  const { defaultToolstepsHome } = await import('../../src/store/files/file-connection-store.js');
  const home = defaultToolstepsHome(env);
  const coordination = await settled('coordination', () => checkCoordinationMode(env));
  const database = await settled('database', () => checkDatabaseStore(env));
  const { FileTenantStores } = await import('../../src/store/files/file-tenant-stores.js');
  const tenantHome = new FileTenantStores(home).homeOf(cliTenant());
  return [
    await settled('node', () => checkNodeVersion()),
    await settled('store', () => checkStorePermissions(tenantHome)),
    await settled('connections', () => connectionsCheck(env, home, coordination, database)),
    await settled('revocations', () => revocationsCheck(env, home, coordination, database)),
    await settled('proxy', () => checkProxySettings(env)),
    coordination,
    database,
    await settled('plan', () => checkPlan(env)),
  ];
}
