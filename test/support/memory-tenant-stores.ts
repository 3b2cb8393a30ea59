import { MemoryAuditTrail } from '../../src/store/audit/memory-audit-trail.js';
import { MemoryConnectionStore } from '../../src/store/connections/memory-connection-store.js';
import { MemorySubscriptionStore } from '../../src/store/subscriptions/memory-subscription-store.js';
import type { TenantId } from '../../src/tenants/tenant-id.js';
import { MemoryLimitStore } from '../../src/tenants/tenant-limits.js';
import type { TenantScopedStores, TenantStores, TenantSummary } from '../../src/tenants/tenant-stores.js';
import { MemoryTokenRevocations } from '../../src/tenants/token-revocations.js';

/**
 * Every tenant's records in memory, each tenant in stores of its own: what
 * the builder tests run on until the tenants issue's stores land on main.
 */
export class MemoryTenantStores implements TenantStores {
  private readonly views = new Map<TenantId, TenantScopedStores>();
  readonly revocations = new MemoryTokenRevocations();

  forTenant(tenant: TenantId): TenantScopedStores {
    let view = this.views.get(tenant);
    if (!view) {
      view = {
        tenant,
        connections: new MemoryConnectionStore(),
        subscriptions: new MemorySubscriptionStore(),
        audit: new MemoryAuditTrail(),
        limits: new MemoryLimitStore(),
      };
      this.views.set(tenant, view);
    }
    return view;
  }

  async tenants(): Promise<TenantSummary[]> {
    const summaries = await Promise.all([...this.views.keys()].map((tenant) => this.summary(tenant)));
    return summaries.filter((summary) => summary.connections + summary.subscriptions > 0);
  }

  async eraseTenant(tenant: TenantId): Promise<TenantSummary> {
    const summary = await this.summary(tenant);
    this.views.delete(tenant);
    return summary;
  }

  private async summary(tenant: TenantId): Promise<TenantSummary> {
    const view = this.forTenant(tenant);
    return {
      tenant,
      connections: (await view.connections.list()).length,
      subscriptions: (await view.subscriptions.list()).length,
    };
  }
}
