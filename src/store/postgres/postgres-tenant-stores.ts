import { randomBytes } from 'node:crypto';
import { openPgPool, type PgDeadlines, postgresWhere } from '../../peers/load-pg.js';
import type { PgPool } from '../../peers/pg-client.js';
import { parseTenantId, type TenantId } from '../../tenants/tenant-id.js';
import type { TenantScopedStores, TenantStores, TenantSummary } from '../../tenants/tenant-stores.js';
import { SecretBox } from '../sealed/secret-box.js';
import { AdvisoryLocks } from './advisory-locks.js';
import { SCHEMA } from './migrations/migration.js';
import { PostgresConnectionStore } from './postgres-connection-store.js';
import { postgresFailure } from './postgres-failure.js';
import { PostgresSubscriptionStore } from './postgres-subscription-store.js';
import { checkSchemaVersion } from './schema-version.js';
import { TenantSessions } from './tenant-sessions.js';

export interface PostgresStoresOptions extends PgDeadlines {
  /** `postgres://...`, as in TOOLSTEPS_DATABASE_URL. */
  url: string;
  /** Seals every tenant's secrets; default from TOOLSTEPS_ENCRYPTION_KEY in `env`. */
  box?: SecretBox;
  env?: NodeJS.ProcessEnv;
  /**
   * Open without TOOLSTEPS_ENCRYPTION_KEY, to list public parts only
   * (`listWithoutSecrets`): every sealed part then refuses to open
   * (EncryptionKeyError `wrong`), and nothing can be written that opens later.
   */
  keyless?: boolean;
  /** How long to wait for another worker's connection lock (a refresh). Default 45 s. */
  lockWaitMs?: number;
}

/** One tenant's view, with the Postgres stores' own members (the lock, the journal, listing without the key). */
export interface PostgresScopedStores extends TenantScopedStores {
  readonly connections: PostgresConnectionStore;
  readonly subscriptions: PostgresSubscriptionStore;
}

/** Every table with a tenant column, erased with the tenant. */
const TENANT_TABLES = [
  'connections',
  'subscriptions',
  'connection_refresh',
  'token_revocations',
  'audit_events',
];

/** One tenant's count of each kind of record, across every tenant, in one read-only statement. */
const COUNT_TENANTS = `
SELECT tenant, sum(connections)::int AS connections, sum(subscriptions)::int AS subscriptions FROM (
  SELECT tenant, count(*) AS connections, 0 AS subscriptions FROM ${SCHEMA}.connections GROUP BY tenant
  UNION ALL
  SELECT tenant, 0, count(*) FROM ${SCHEMA}.subscriptions GROUP BY tenant
) AS counted GROUP BY tenant ORDER BY tenant`;

/**
 * Every tenant's connections and subscriptions in PostgreSQL, the durable
 * system of record beside Redis the coordinator. The tenant is in every
 * primary key and every statement's predicate, and row-level security
 * hides other tenants' rows from each transaction as a second wall.
 * Secrets are sealed as in Redis, with TOOLSTEPS_ENCRYPTION_KEY's box for
 * now: one key for every tenant, each record bound to its tenant.
 */
export class PostgresTenantStores implements TenantStores {
  private readonly views = new Map<TenantId, PostgresScopedStores>();
  private readonly sessions: TenantSessions;
  private readonly locks: AdvisoryLocks;

  private constructor(
    private readonly pool: PgPool,
    private readonly lockPool: PgPool,
    readonly where: string,
    private readonly box: SecretBox,
    lockWaitMs: number,
  ) {
    this.sessions = new TenantSessions(pool, where);
    this.locks = new AdvisoryLocks(lockPool, where, lockWaitMs);
  }

  /**
   * Opens the pools and checks the schema before anything else is read.
   * @throws EncryptionKeyError when the key is missing or malformed (before connecting).
   * @throws SchemaError when the database needs `toolsteps db migrate` (or a newer toolsteps).
   */
  static async open(options: PostgresStoresOptions): Promise<PostgresTenantStores> {
    // Keyless: a key of its own that sealed nothing stored, so it opens nothing stored.
    const box =
      options.box ??
      (options.keyless ? new SecretBox(randomBytes(32)) : SecretBox.fromEnv(options.env ?? process.env));
    const where = postgresWhere(options.url);
    const pool = await openPgPool(options.url, options);
    const lockPool = await openPgPool(options.url, options);
    const stores = new PostgresTenantStores(pool, lockPool, where, box, options.lockWaitMs ?? 45_000);
    try {
      await checkSchemaVersion(pool, where).catch((error: unknown) => {
        throw postgresFailure(where, error);
      });
      return stores;
    } catch (error) {
      await stores.close();
      throw error;
    }
  }

  forTenant(tenant: TenantId): PostgresScopedStores {
    const checked = parseTenantId(tenant);
    let view = this.views.get(checked);
    if (!view) {
      const scope = { sessions: this.sessions, tenant: checked, box: this.box };
      view = {
        tenant: checked,
        connections: new PostgresConnectionStore(scope, this.locks),
        subscriptions: new PostgresSubscriptionStore(scope),
      };
      this.views.set(checked, view);
    }
    return view;
  }

  tenants(): Promise<TenantSummary[]> {
    return this.sessions.acrossTenants(async (client) => {
      const { rows } = await client.query<TenantSummary>(COUNT_TENANTS);
      return rows;
    });
  }

  eraseTenant(tenant: TenantId): Promise<TenantSummary> {
    const checked = parseTenantId(tenant);
    return this.sessions.inTenant(checked, async (client) => {
      const removed: Record<string, number> = {};
      for (const table of TENANT_TABLES) {
        const { rowCount } = await client.query(`DELETE FROM ${SCHEMA}.${table} WHERE tenant = $1`, [
          checked,
        ]);
        removed[table] = rowCount ?? 0;
      }
      return {
        tenant: checked,
        connections: removed.connections ?? 0,
        subscriptions: removed.subscriptions ?? 0,
      };
    });
  }

  /** Closes both pools; what is in flight finishes first. */
  async close(): Promise<void> {
    await Promise.allSettled([this.pool.end(), this.lockPool.end()]);
  }
}
