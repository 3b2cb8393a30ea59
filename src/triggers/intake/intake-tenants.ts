import { DEFAULT_TENANT, type TenantId } from '../../model/tenant-id.js';
import type { DedupeStore } from '../../store/dedupe-store.js';
import { DonePendingDedupeStore } from '../../store/done-pending-dedupe-store.js';
import type { SubscriptionStore } from '../../store/subscription-store.js';
import { DeliveryTimes } from './delivery-times.js';

/** What the intake needs of one tenant: its subscriptions, and where its events' dedupe records live. */
export interface IntakeTenant {
  subscriptions: SubscriptionStore;
  dedupe: DedupeStore;
}

/**
 * The stores of a tenant whose hooks an intake serves, or undefined for one
 * it does not serve. The tenant comes from a request path, so anyone can
 * name any: answer undefined for one that holds no subscription rather
 * than making stores for it.
 */
export type IntakeTenants = (
  tenant: TenantId,
) => IntakeTenant | undefined | Promise<IntakeTenant | undefined>;

/** How an intake is told which tenants it serves: all through `tenants`, or one through its stores. */
export interface IntakeTenantOptions {
  tenants?: IntakeTenants;
  subscriptions?: SubscriptionStore;
  dedupe?: DedupeStore;
  tenant?: TenantId;
}

/**
 * A served tenant's stores, its dedupe wrapped so a started event is never
 * released (`DonePendingDedupeStore`), and its subscriptions' delivery
 * times written at most once a second (`DeliveryTimes`).
 */
export interface ServedTenant {
  tenant: TenantId;
  subscriptions: SubscriptionStore;
  dedupe: DonePendingDedupeStore;
  deliveries: DeliveryTimes;
}

/**
 * The tenants an intake serves: every one `tenants` answers for, or the one
 * tenant (default: the default tenant) whose `subscriptions` and `dedupe`
 * were given. Each tenant's dedupe is wrapped once and kept, so `settle`
 * writes every tenant's waiting delivery times and waits for its pending
 * done marks.
 */
export function servedTenants(options: IntakeTenantOptions) {
  const only = options.tenant ?? DEFAULT_TENANT;
  const { subscriptions, dedupe } = options;
  const lookup: IntakeTenants =
    options.tenants ??
    ((tenant) => (tenant === only && subscriptions && dedupe ? { subscriptions, dedupe } : undefined));
  if (!options.tenants && !(subscriptions && dedupe)) {
    throw new TypeError('createIntake needs `tenants`, or `subscriptions` and `dedupe`.');
  }
  const served = new Map<TenantId, ServedTenant>();
  return {
    async get(tenant: TenantId): Promise<ServedTenant | undefined> {
      const known = served.get(tenant);
      if (known) return known;
      const stores = await lookup(tenant);
      if (!stores) return undefined;
      const found = {
        tenant,
        subscriptions: stores.subscriptions,
        dedupe: new DonePendingDedupeStore(stores.dedupe),
        deliveries: new DeliveryTimes(stores.subscriptions),
      };
      served.set(tenant, found);
      return found;
    },
    async settle(timeoutMs: number): Promise<number> {
      await Promise.all([...served.values()].map((one) => one.deliveries.flush()));
      const pending = await Promise.all([...served.values()].map((one) => one.dedupe.settle(timeoutMs)));
      return pending.reduce((sum, count) => sum + count, 0);
    },
  };
}

export type ServedTenants = ReturnType<typeof servedTenants>;
