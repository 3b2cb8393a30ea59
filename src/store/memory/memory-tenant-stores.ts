import type { PendingRevocation } from '../../model/pending-revocation.js';
import { parseTenantId, type TenantId } from '../../model/tenant-id.js';
import { getOrCreate } from '../../values/get-or-create.js';
import { checkPendingRevocation } from '../pending-revocation-shape.js';
import type { TenantScopedStores, TenantStores, TenantSummary } from '../tenant-stores.js';
import { summarizeTenant } from '../tenant-summary.js';
import { MemoryAuditTrail } from './memory-audit-trail.js';
import { MemoryConnectionStore } from './memory-connection-store.js';
import { MemoryLimitStore } from './memory-limit-store.js';
import { MemoryRecordStore } from './memory-record-store.js';
import { MemorySubscriptionStore } from './memory-subscription-store.js';
import { MemoryTokenRevocations } from './memory-token-revocations.js';

/** Every tenant's records in this process's memory, one pair of stores per tenant: for tests and embedders that persist them themselves. */
export class MemoryTenantStores implements TenantStores {
  private readonly views = new Map<TenantId, TenantScopedStores>();
  readonly revocations = new MemoryTokenRevocations();
  readonly pendingRevocations = new MemoryRecordStore<PendingRevocation>({
    noun: 'pending revocation',
    check: checkPendingRevocation,
  });

  forTenant(tenant: TenantId): TenantScopedStores {
    return getOrCreate(this.views, parseTenantId(tenant), (id) => ({
      tenant: id,
      connections: new MemoryConnectionStore(),
      subscriptions: new MemorySubscriptionStore(),
      audit: new MemoryAuditTrail(),
      limits: new MemoryLimitStore(),
    }));
  }

  /** Whether the tenant holds a subscription, without making stores for it: for ids that come from outside (a webhook's path). */
  async holdsSubscriptions(tenant: TenantId): Promise<boolean> {
    const view = this.views.get(tenant);
    return view !== undefined && (await view.subscriptions.list()).length > 0;
  }

  async tenants(): Promise<TenantSummary[]> {
    const all = await Promise.all([...this.views.values()].map((view) => summarizeTenant(view)));
    return all.filter((summary) => summary.connections + summary.subscriptions > 0);
  }

  async eraseTenant(tenant: TenantId): Promise<TenantSummary> {
    const summary = await summarizeTenant(this.forTenant(tenant));
    this.views.delete(tenant);
    this.revocations.eraseTenant(tenant);
    return summary;
  }
}
