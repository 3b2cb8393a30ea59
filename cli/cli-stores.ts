import type { Coordinator } from '../src/coordination/coordinator.js';
import type { ConnectionStore } from '../src/store/connections/connection-store.js';
import type { DedupeStore } from '../src/store/dedupe/dedupe-store.js';
import type { RekeyCounts, RekeyOptions } from '../src/store/sealed/encrypted-records.js';
import type { SubscriptionStore } from '../src/store/subscriptions/subscription-store.js';

/** Where the CLI keeps connections, subscriptions and dedupe records, and what coordinates its workers. */
export interface CliStores {
  /** Where connections and subscriptions live: files, Redis, or Postgres (TOOLSTEPS_DATABASE_URL). */
  mode: 'local' | 'redis' | 'postgres';
  connections: ConnectionStore;
  subscriptions: SubscriptionStore;
  dedupe: DedupeStore;
  /** Set with Redis: the runtime shares its rate gates through it. */
  coordinator?: Coordinator;
  /** With Redis, the URL the worker queue connects to. */
  redisUrl?: string;
  /** With Redis or Postgres: seals every stored secret with the current key; how many were under an older one. */
  rekey?: (options: RekeyOptions) => Promise<Record<'connections' | 'subscriptions', RekeyCounts>>;
  close(): Promise<void>;
}

let opened: Promise<CliStores> | undefined;

async function open(env: NodeJS.ProcessEnv): Promise<CliStores> {
  const { configuredRedisUrl } = await import('../src/coordination/open-coordinator.js');
  const redisUrl = configuredRedisUrl({ env });
  const { configuredDatabaseUrl } = await import('../src/store/postgres/database-url.js');
  const databaseUrl = configuredDatabaseUrl(env);
  if (databaseUrl) {
    const { openPostgresCliStores } = await import('./postgres-cli-stores.js');
    return openPostgresCliStores(databaseUrl, redisUrl, env);
  }
  if (redisUrl) {
    const { openRedisStores } = await import('../src/store/open-redis-stores.js');
    const stores = await openRedisStores({ redisUrl, env });
    const rekey = async (options: RekeyOptions) => ({
      connections: await stores.connections.rekey(options),
      subscriptions: await stores.subscriptions.rekey(options),
    });
    return { mode: 'redis', ...stores, dedupe: stores.coordinator, redisUrl, rekey };
  }
  const [fileStore, subscriptionStore, dedupeStore] = await Promise.all([
    import('../src/store/connections/file-connection-store.js'),
    import('../src/store/subscriptions/file-subscription-store.js'),
    import('../src/store/dedupe/file-dedupe-store.js'),
  ]);
  const home = fileStore.defaultToolstepsHome(env);
  return {
    mode: 'local',
    connections: new fileStore.FileConnectionStore(home),
    subscriptions: new subscriptionStore.FileSubscriptionStore(home),
    dedupe: new dedupeStore.FileDedupeStore(home),
    close: async () => {},
  };
}

/**
 * The stores every command uses, opened once per process: files under
 * $TOOLSTEPS_HOME by default, or, with TOOLSTEPS_REDIS_URL, Redis shared by
 * every worker (secrets sealed with TOOLSTEPS_ENCRYPTION_KEY), or, with
 * TOOLSTEPS_DATABASE_URL, connections and subscriptions in Postgres (sealed
 * the same way) beside Redis, which still coordinates.
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
