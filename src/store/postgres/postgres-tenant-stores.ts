import { randomBytes } from 'node:crypto';
import type { PendingRevocation } from '../../model/pending-revocation.js';
import { DEFAULT_TENANT, parseTenantId, type TenantId } from '../../model/tenant-id.js';
import { openPgPool, type PgDeadlines } from '../../peers/load-pg.js';
import type { PgPool } from '../../peers/pg-client.js';
import { getOrCreate } from '../../values/get-or-create.js';
import { AuditSeal } from '../audit/audit-chain.js';
import { checkPendingRevocation, PENDING_REVOCATION_SHAPE } from '../pending-revocation-shape.js';
import type { TenantRekeyCounts } from '../redis/redis-tenant-stores.js';
import { GuardedLimitStore } from '../sealed/guarded-limit-store.js';
import { GuardedTokenRevocations } from '../sealed/guarded-token-revocations.js';
import { SecretBox } from '../sealed/secret-box.js';
import { FIRST_GUARD, GuardSeal } from '../sealed/tenant-guard.js';
import type { TenantScopedStores, TenantStores, TenantSummary } from '../tenant-stores.js';
import { AdvisoryLocks } from './advisory-locks.js';
import { SCHEMA } from './migrations/migration.js';
import { PostgresAuditTrail } from './postgres-audit-trail.js';
import { PostgresConnectionStore } from './postgres-connection-store.js';
import { PostgresDataKey } from './postgres-data-key.js';
import { postgresFailure } from './postgres-failure.js';
import { PostgresRecordStore } from './postgres-record-store.js';
import { PostgresSubscriptionStore } from './postgres-subscription-store.js';
import { PostgresTenantGuard } from './postgres-tenant-guard.js';
import { COUNT_TENANTS, TENANT_TABLES } from './postgres-tenant-tables.js';
import { checkSchemaVersion } from './schema-version.js';
import { TenantSessions } from './tenant-sessions.js';

/** Where the Postgres stores connect and how they seal secrets; the deadlines keep a stalled database from hanging a call. */
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
  readonly audit: PostgresAuditTrail;
  readonly limits: GuardedLimitStore;
}

/** What a guard is bound to besides its tenant, as a data key is: this store. */
const GUARD_NAMESPACE = `postgres:${SCHEMA}`;

/**
 * Every tenant's connections and subscriptions in PostgreSQL, the durable
 * system of record beside Redis the coordinator. The tenant is in every
 * primary key and every statement's predicate, and row-level security
 * hides other tenants' rows from each transaction as a second wall.
 * Secrets are sealed as in Redis: with the tenant's own data key (a row of
 * `data_keys`, wrapped with TOOLSTEPS_ENCRYPTION_KEY), each record bound to
 * its tenant; erasing the tenant deletes the key with its rows.
 */
export class PostgresTenantStores implements TenantStores {
  private readonly views = new Map<TenantId, PostgresScopedStores>();
  private readonly dataKeys = new Map<TenantId, PostgresDataKey>();
  private readonly guards = new Map<TenantId, PostgresTenantGuard>();
  private readonly sessions: TenantSessions;
  private readonly locks: AdvisoryLocks;
  readonly revocations: GuardedTokenRevocations;
  private pending: PostgresRecordStore<PendingRevocation> | undefined;

  private constructor(
    private readonly pool: PgPool,
    private readonly lockPool: PgPool,
    private readonly box: SecretBox,
    lockWaitMs: number,
  ) {
    this.sessions = new TenantSessions(pool);
    this.locks = new AdvisoryLocks(lockPool, lockWaitMs);
    this.revocations = new GuardedTokenRevocations((tenant) => this.guard(tenant));
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
    const pool = await openPgPool(options.url, options);
    const lockPool = await openPgPool(options.url, options);
    const stores = new PostgresTenantStores(pool, lockPool, box, options.lockWaitMs ?? 45_000);
    try {
      await checkSchemaVersion(pool).catch((error: unknown) => {
        throw postgresFailure(error);
      });
      return stores;
    } catch (error) {
      await stores.close();
      throw error;
    }
  }

  private dataKey(tenant: TenantId): PostgresDataKey {
    return getOrCreate(this.dataKeys, tenant, () => {
      const seal = new GuardSeal(tenant, GUARD_NAMESPACE);
      return new PostgresDataKey(this.box, tenant, (box) => seal.seal(box, FIRST_GUARD));
    });
  }

  /** The tenant's revocations and limits; kept per tenant, as it holds the newest version this process saw. */
  private guard(tenant: TenantId): PostgresTenantGuard {
    return getOrCreate(this.guards, parseTenantId(tenant), (checked) => {
      const seal = new GuardSeal(checked, GUARD_NAMESPACE);
      return new PostgresTenantGuard(this.sessions, checked, this.dataKey(checked), seal);
    });
  }

  forTenant(tenant: TenantId): PostgresScopedStores {
    return getOrCreate(this.views, parseTenantId(tenant), (checked) => {
      const scope = { sessions: this.sessions, tenant: checked, keys: this.dataKey(checked) };
      return {
        tenant: checked,
        connections: new PostgresConnectionStore(scope, this.locks),
        subscriptions: new PostgresSubscriptionStore(scope),
        audit: new PostgresAuditTrail(this.sessions, checked, new AuditSeal(this.box, checked)),
        limits: new GuardedLimitStore(this.guard(checked)),
      };
    });
  }

  /**
   * Every tenant's pending revocations (migration 6), sealed with the
   * default tenant's data key in its rows, as the Redis store keeps them: an
   * erased tenant's data key is destroyed, so what is still to be revoked
   * for it cannot be kept under that one. `update` holds the row, so a
   * claim is atomic across workers.
   */
  get pendingRevocations(): PostgresRecordStore<PendingRevocation> {
    this.pending ??= new PostgresRecordStore({
      sessions: this.sessions,
      tenant: DEFAULT_TENANT,
      keys: this.dataKey(DEFAULT_TENANT),
      table: 'pending_revocations',
      shape: PENDING_REVOCATION_SHAPE,
      check: checkPendingRevocation,
    });
    return this.pending;
  }

  /** Whether the tenant holds a subscription, without making stores for it: for ids that come from outside (a webhook's path). */
  holdsSubscriptions(tenant: TenantId): Promise<boolean> {
    const checked = parseTenantId(tenant);
    return this.sessions.inTenant(checked, async (client) => {
      const { rowCount } = await client.query(
        `SELECT 1 FROM ${SCHEMA}.subscriptions WHERE tenant = $1 LIMIT 1`,
        [checked],
      );
      return (rowCount ?? 0) > 0;
    });
  }

  tenants(): Promise<TenantSummary[]> {
    return this.sessions.acrossTenants(async (client) => {
      const { rows } = await client.query<TenantSummary>(COUNT_TENANTS);
      return rows;
    });
  }

  async eraseTenant(tenant: TenantId): Promise<TenantSummary> {
    const checked = parseTenantId(tenant);
    const summary = await this.sessions.inTenant(checked, async (client) => {
      const removed: Record<string, number> = {};
      for (const table of TENANT_TABLES) {
        const { rowCount } = await client.query(`DELETE FROM ${SCHEMA}.${table} WHERE tenant = $1`, [
          checked,
        ]);
        removed[table] = rowCount ?? 0;
      }
      // A fresh view from here: what this one remembers (the audit trail's floor) was erased too.
      this.views.delete(checked);
      return {
        tenant: checked,
        connections: removed.connections ?? 0,
        subscriptions: removed.subscriptions ?? 0,
      };
    });
    // The erasure is this process's own: the guard's floor goes with the guard, and a new tenant of that id starts afresh.
    this.views.delete(checked);
    this.guards.delete(checked);
    return summary;
  }

  /**
   * After `TOOLSTEPS_ENCRYPTION_KEY` changed (the old one in
   * `TOOLSTEPS_ENCRYPTION_KEY_PREVIOUS`): re-wraps every tenant's data key
   * with the new master key, and re-seals under its tenant's data key any
   * record a master key sealed (stored before data keys). Records already
   * sealed with a data key are not touched: a rotation costs one row per tenant.
   */
  async rekey(): Promise<TenantRekeyCounts> {
    const counts: TenantRekeyCounts = {
      dataKeys: { rewrapped: 0, total: 0 },
      guardsMade: 0,
      connections: { rekeyed: 0, total: 0, unsealed: [] },
      subscriptions: { rekeyed: 0, total: 0, unsealed: [] },
    };
    for (const { tenant } of await this.tenants()) {
      const key = this.dataKey(tenant);
      if (await this.sessions.inTenant(tenant, (client) => key.rewrapIn(client)))
        counts.dataKeys.rewrapped += 1;
      counts.dataKeys.total += 1;
      if (await this.guard(tenant).upgrade()) counts.guardsMade += 1;
      const view = this.forTenant(tenant);
      for (const kind of ['connections', 'subscriptions'] as const) {
        const done = await view[kind].rekey();
        counts[kind].rekeyed += done.rekeyed;
        counts[kind].total += done.total;
      }
    }
    return counts;
  }

  /** Closes both pools; what is in flight finishes first. */
  async close(): Promise<void> {
    await Promise.allSettled([this.pool.end(), this.lockPool.end()]);
  }
}
