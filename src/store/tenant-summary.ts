import type { TenantScopedStores, TenantSummary } from './tenant-stores.js';

/** How many records one tenant's view holds: what `tenants list` shows, never a record's content. */
export async function summarizeTenant(view: TenantScopedStores): Promise<TenantSummary> {
  const [connections, subscriptions] = await Promise.all([
    view.connections.list(),
    view.subscriptions.list(),
  ]);
  return { tenant: view.tenant, connections: connections.length, subscriptions: subscriptions.length };
}

/** Tenants in id order, the default first: how every backend lists them. */
export function byTenantId(a: TenantSummary, b: TenantSummary): number {
  if (a.tenant === b.tenant) return 0;
  if (a.tenant === 'default') return -1;
  if (b.tenant === 'default') return 1;
  return a.tenant < b.tenant ? -1 : 1;
}
