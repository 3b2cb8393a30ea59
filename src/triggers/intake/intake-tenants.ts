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
  const serve = async (tenant: TenantId): Promise<ServedTenant | undefined> => {
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
  };
  // The lookups under way, so deliveries that arrive together before a tenant is known share one.
  const looking = new Map<TenantId, Promise<ServedTenant | undefined>>();
  return {
    /**
     * A tenant's stores, made once: deliveries that arrive together share
     * them, so `settle` sees every done mark still pending and the
     * delivery times are written by one writer, not one each (each wrote
     * its compare-and-set at once, and all but one retried).
     */
    async get(tenant: TenantId): Promise<ServedTenant | undefined> {
      const known = served.get(tenant);
      if (known) return known;
      let finding = looking.get(tenant);
      if (!finding) {
        // Not kept past its answer: a tenant that holds no subscription yet may hold one later.
        finding = serve(tenant).finally(() => looking.delete(tenant));
        looking.set(tenant, finding);
      }
      return finding;
    },
    async settle(timeoutMs: number): Promise<number> {
      await Promise.all([...served.values()].map((one) => one.deliveries.flush()));
      const pending = await Promise.all([...served.values()].map((one) => one.dedupe.settle(timeoutMs)));
      return pending.reduce((sum, count) => sum + count, 0);
    },
  };
}

export type ServedTenants = ReturnType<typeof servedTenants>;
