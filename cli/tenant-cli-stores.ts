import type { TenantId } from '../src/model/tenant-id.js';
import type { DedupeStore } from '../src/store/dedupe-store.js';
import type { TenantScopedStores, TenantStores } from '../src/store/tenant-stores.js';
import type { IntakeTenant } from '../src/triggers/intake/intake-tenants.js';

/** Every tenant's stores of one backend (files, Redis, Postgres), with its own type of view. */
interface Backend<View extends TenantScopedStores> extends TenantStores {
  forTenant(tenant: TenantId): View;
}

/**
 * The part of `CliStores` every backend fills alike: the run's tenant's own
 * stores (connections, subscriptions, audit trail, limits) and its dedupe
 * records, every tenant's stores, and the intake's view of a tenant a
 * webhook's path names. Dedupe records live where the run keeps them
 * (`dedupeOf`: the tenant's files, or its keys in Redis), which need not be
 * the backend of its connections.
 */
export function tenantCliStores<View extends TenantScopedStores>(
  tenants: Backend<View>,
  tenant: TenantId,
  dedupeOf: (tenant: TenantId) => DedupeStore,
) {
  const view = tenants.forTenant(tenant);
  return {
    tenant,
    connections: view.connections as View['connections'],
    subscriptions: view.subscriptions as View['subscriptions'],
    audit: view.audit as View['audit'],
    limits: view.limits as View['limits'],
    dedupe: dedupeOf(tenant),
    tenants,
    /** Undefined for a tenant with no subscription, asked without making stores for an id that came from outside. */
    intakeTenant: async (one: TenantId): Promise<IntakeTenant | undefined> =>
      (await tenants.holdsSubscriptions(one))
        ? { subscriptions: tenants.forTenant(one).subscriptions, dedupe: dedupeOf(one) }
        : undefined,
  };
}
