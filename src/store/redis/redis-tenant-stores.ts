import type { PendingRevocation } from '../../model/pending-revocation.js';
import { DEFAULT_TENANT, isTenantId, parseTenantId, type TenantId } from '../../model/tenant-id.js';
import { getOrCreate } from '../../values/get-or-create.js';
import { AuditSeal } from '../audit/audit-chain.js';
import { checkPendingRevocation, PENDING_REVOCATION_SHAPE } from '../pending-revocation-shape.js';
import { GuardedLimitStore } from '../sealed/guarded-limit-store.js';
import { GuardedTokenRevocations } from '../sealed/guarded-token-revocations.js';
import type { SecretBox } from '../sealed/secret-box.js';
import { FIRST_GUARD, GuardSeal } from '../sealed/tenant-guard.js';
import type { TenantScopedStores, TenantStores, TenantSummary } from '../tenant-stores.js';
import { byTenantId } from '../tenant-summary.js';
import type { RekeyCounts, RekeyOptions } from './encrypted-records.js';
import { recordIndexKey } from './public-records.js';
import { RedisAuditTrail } from './redis-audit-trail.js';
import { RedisConnectionStore, type RedisConnectionStoreOptions } from './redis-connection-store.js';
import type { RedisHandle } from './redis-handle.js';
import { deleteMatching, scanKeys } from './redis-key-scan.js';
import { RedisRecordStore } from './redis-record-store.js';
import { RedisSubscriptionStore } from './redis-subscription-store.js';
import { RedisTenantGuard } from './redis-tenant-guard.js';
import { TenantDataKey } from './tenant-data-key.js';

/** One tenant's Redis stores, over its coordinator, sealing with its data key. */
export interface RedisTenantView<Handle extends RedisHandle<Handle> = RedisHandle>
  extends TenantScopedStores {
  readonly connections: RedisConnectionStore;
  readonly subscriptions: RedisSubscriptionStore;
  readonly coordinator: Handle;
  readonly audit: RedisAuditTrail;
  readonly limits: GuardedLimitStore;
}

/** The connection stores' options, and how many records each tenant's audit stream keeps (about; default 100,000). */
export interface RedisTenantStoresOptions extends RedisConnectionStoreOptions {
  auditStreamLength?: number;
}

/** What a master key rotation did: data keys re-wrapped, and records re-sealed under their tenant's data key. */
export interface TenantRekeyCounts {
  dataKeys: { rewrapped: number; total: number };
  /** Tenants whose data key had no guard (made by an earlier toolsteps) and got a first, empty one. */
  guardsMade: number;
  connections: RekeyCounts;
  subscriptions: RekeyCounts;
}

/** The kinds of the default tenant's keys beside its records: dedupe, idempotency, budgets, locks, quotas, audit, limits. */
const DEFAULT_TENANT_KINDS = [
  'once',
  'kv',
  'count',
  'count-ids',
  'lock',
  'quota',
  'quota-flight',
  'token-revoked',
  'audit',
  'limits',
  'guard',
];

const sumRekeys = (a: RekeyCounts, b: RekeyCounts, tenant: TenantId): RekeyCounts => ({
  rekeyed: a.rekeyed + b.rekeyed,
  total: a.total + b.total,
  unsealed: [...a.unsealed, ...b.unsealed.map((id) => (tenant === DEFAULT_TENANT ? id : `${tenant}/${id}`))],
});

/**
 * Every tenant's records in one Redis: tenant `t`'s keys under
 * `<prefix>:t:<t>:` (`RedisHandle.forTenant`), the default tenant's
 * under `<prefix>:` where they were before tenants. Each tenant's secrets
 * are sealed with its own data key (`TenantDataKey`), itself sealed with
 * the master key; the seal binds the tenant, so a record moved into another
 * tenant's keys is refused as tampered.
 */
export class RedisTenantStores<Handle extends RedisHandle<Handle> = RedisHandle> implements TenantStores {
  private readonly views = new Map<TenantId, RedisTenantView<Handle>>();
  private readonly dataKeys = new Map<TenantId, TenantDataKey>();
  private readonly guards = new Map<TenantId, RedisTenantGuard>();
  readonly revocations: GuardedTokenRevocations;
  private pending: RedisRecordStore<PendingRevocation> | undefined;

  constructor(
    readonly coordinator: Handle,
    private readonly master: SecretBox,
    private readonly options: RedisTenantStoresOptions = {},
  ) {
    this.revocations = new GuardedTokenRevocations((tenant) => this.guard(tenant));
  }

  /**
   * Every tenant's pending revocations, sealed with the default tenant's
   * data key under its prefix (`<prefix>:revoke:<id>`): an erased tenant's
   * data key is destroyed, so what is still to be revoked for it cannot be
   * kept under that one.
   */
  get pendingRevocations(): RedisRecordStore<PendingRevocation> {
    this.pending ??= new RedisRecordStore(
      this.coordinator.forTenant(DEFAULT_TENANT),
      this.dataKey(DEFAULT_TENANT),
      PENDING_REVOCATION_SHAPE,
      checkPendingRevocation,
      DEFAULT_TENANT,
    );
    return this.pending;
  }

  private dataKey(tenant: TenantId): TenantDataKey {
    return getOrCreate(this.dataKeys, tenant, () => {
      const coordinator = this.coordinator.forTenant(tenant);
      const seal = new GuardSeal(tenant, coordinator.prefix);
      const first = {
        key: RedisTenantGuard.keyOf(coordinator),
        sealed: (box: SecretBox) => seal.seal(box, FIRST_GUARD),
      };
      return new TenantDataKey(coordinator, this.master, tenant, first);
    });
  }

  /** The tenant's revocations and limits; kept per tenant, as it holds the newest version this process saw. */
  private guard(tenant: TenantId): RedisTenantGuard {
    return getOrCreate(this.guards, parseTenantId(tenant), (id) => {
      const coordinator = this.coordinator.forTenant(id);
      return new RedisTenantGuard(coordinator, this.dataKey(id), new GuardSeal(id, coordinator.prefix));
    });
  }

  forTenant(tenant: TenantId): RedisTenantView<Handle> {
    return getOrCreate(this.views, parseTenantId(tenant), (id) => {
      const coordinator = this.coordinator.forTenant(id);
      const keys = this.dataKey(id);
      return {
        tenant: id,
        coordinator,
        connections: new RedisConnectionStore(coordinator, keys, this.options, id),
        subscriptions: new RedisSubscriptionStore(coordinator, keys, id),
        audit: new RedisAuditTrail(
          coordinator,
          new AuditSeal(this.master, id),
          this.options.auditStreamLength,
        ),
        limits: new GuardedLimitStore(this.guard(id)),
      };
    });
  }

  /** Every tenant with a record or a data key, found by its keys (no secret is opened). */
  private async tenantIds(): Promise<TenantId[]> {
    const base = `${this.coordinator.prefix}:t:`;
    const found = new Set<TenantId>([DEFAULT_TENANT]);
    for (const suffix of ['conn:_index', 'sub:_index', 'datakey:current']) {
      for (const key of await scanKeys(this.coordinator, base, `*:${suffix}`)) {
        const tenant = key.slice(base.length, key.length - suffix.length - 1);
        if (isTenantId(tenant)) found.add(tenant);
      }
    }
    return [...found];
  }

  private async count(tenant: TenantId, kind: string): Promise<number> {
    const coordinator = this.coordinator.forTenant(tenant);
    return Number(await coordinator.client.call('SCARD', recordIndexKey(coordinator, kind)));
  }

  private async summary(tenant: TenantId): Promise<TenantSummary> {
    const [connections, subscriptions] = await Promise.all([
      this.count(tenant, 'conn'),
      this.count(tenant, 'sub'),
    ]);
    return { tenant, connections, subscriptions };
  }

  /** Whether the tenant has a subscription, without making stores for it: for ids that come from outside. */
  async holdsSubscriptions(tenant: TenantId): Promise<boolean> {
    return (await this.count(parseTenantId(tenant), 'sub')) > 0;
  }

  /** Counted from the index sets: needs no encryption key and opens nothing. */
  async tenants(): Promise<TenantSummary[]> {
    const all = await Promise.all((await this.tenantIds()).map((tenant) => this.summary(tenant)));
    return all.filter((summary) => summary.connections + summary.subscriptions > 0).sort(byTenantId);
  }

  /** Deletes every key of the tenant, its data key included: a copy of its records no longer opens. */
  async eraseTenant(tenant: TenantId): Promise<TenantSummary> {
    const id = parseTenantId(tenant);
    const summary = await this.summary(id);
    const coordinator = this.coordinator.forTenant(id);
    if (id !== DEFAULT_TENANT) {
      await deleteMatching(coordinator, `${coordinator.prefix}:`, '*');
    } else {
      for (const kind of ['conn', 'sub']) {
        const ids = await coordinator.client.smembers(recordIndexKey(coordinator, kind));
        const keys = ids.flatMap((one) => [coordinator.key(kind, one), coordinator.key('conn-refresh', one)]);
        await coordinator.client.del(recordIndexKey(coordinator, kind), ...keys);
      }
      for (const kind of DEFAULT_TENANT_KINDS)
        await deleteMatching(coordinator, `${coordinator.prefix}:${kind}:`, '*');
    }
    await this.dataKey(id).destroy();
    if (id === DEFAULT_TENANT) this.pending = undefined;
    this.views.delete(id);
    this.dataKeys.delete(id);
    this.guards.delete(id);
    return summary;
  }

  /**
   * After `TOOLSTEPS_ENCRYPTION_KEY` changed (the old one in
   * `TOOLSTEPS_ENCRYPTION_KEY_PREVIOUS`): re-wraps every tenant's data key
   * with the new master key, and re-seals under its tenant's data key any
   * record still sealed with a master key (stored before data keys). The
   * records sealed with a data key are not touched.
   */
  async rekey(options: RekeyOptions = {}): Promise<TenantRekeyCounts> {
    const empty = (): RekeyCounts => ({ rekeyed: 0, total: 0, unsealed: [] });
    const counts: TenantRekeyCounts = {
      dataKeys: { rewrapped: 0, total: 0 },
      guardsMade: 0,
      connections: empty(),
      subscriptions: empty(),
    };
    for (const tenant of await this.tenantIds()) {
      const view = this.forTenant(tenant);
      if (await this.dataKey(tenant).rewrap()) counts.dataKeys.rewrapped += 1;
      if (await this.guard(tenant).upgrade()) counts.guardsMade += 1;
      counts.connections = sumRekeys(counts.connections, await view.connections.rekey(options), tenant);
      counts.subscriptions = sumRekeys(counts.subscriptions, await view.subscriptions.rekey(options), tenant);
      counts.dataKeys.total += 1;
    }
    return counts;
  }
}
