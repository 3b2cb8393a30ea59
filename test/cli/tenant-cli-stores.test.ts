import { describe, expect, it } from 'vitest';
import { tenantCliStores } from '../../cli/tenant-cli-stores.js';
import { parseTenantId, type TenantId } from '../../src/model/tenant-id.js';
import { MemoryDedupeStore } from '../../src/store/memory/memory-dedupe-store.js';
import { MemoryTenantStores } from '../../src/store/memory/memory-tenant-stores.js';
import { subscriptionFor } from '../triggers/trigger-fixtures.js';

const [ACME, B, STRANGER] = ['acme', 'b', 'stranger'].map(parseTenantId) as [TenantId, TenantId, TenantId];

/** Memory stores that note every tenant a view is made for. */
class WatchedTenantStores extends MemoryTenantStores {
  readonly viewed: TenantId[] = [];
  override forTenant(tenant: TenantId) {
    this.viewed.push(tenant);
    return super.forTenant(tenant);
  }
}

describe('tenantCliStores: what every backend fills alike', () => {
  it("hands the run's tenant its own stores and its dedupe records, from where the run keeps them", () => {
    const tenants = new WatchedTenantStores();
    const dedupe = new Map<TenantId, MemoryDedupeStore>();
    const dedupeOf = (tenant: TenantId) =>
      dedupe.get(tenant) ?? dedupe.set(tenant, new MemoryDedupeStore()).get(tenant)!;
    const stores = tenantCliStores(tenants, ACME, dedupeOf);
    const own = tenants.forTenant(ACME);
    expect(stores.tenant).toBe(ACME);
    expect(stores.connections).toBe(own.connections);
    expect(stores.subscriptions).toBe(own.subscriptions);
    expect(stores.audit).toBe(own.audit);
    expect(stores.limits).toBe(own.limits);
    expect(stores.dedupe).toBe(dedupeOf(ACME));
    expect(stores.tenants).toBe(tenants);
  });

  it('gives the intake a subscribed tenant its subscriptions and its own dedupe records, and makes no view for an id a path names that holds none', async () => {
    const tenants = new WatchedTenantStores();
    const dedupe = new Map<TenantId, MemoryDedupeStore>();
    const dedupeOf = (tenant: TenantId) =>
      dedupe.get(tenant) ?? dedupe.set(tenant, new MemoryDedupeStore()).get(tenant)!;
    await tenants
      .forTenant(B)
      .subscriptions.put(subscriptionFor('ticketing.ticket_created', { id: 'sub_tenantb01' }));
    const stores = tenantCliStores(tenants, ACME, dedupeOf);
    tenants.viewed.length = 0;

    expect(await stores.intakeTenant(STRANGER)).toBeUndefined();
    expect(tenants.viewed).not.toContain(STRANGER);

    const b = await stores.intakeTenant(B);
    expect(b?.subscriptions).toBe(tenants.forTenant(B).subscriptions);
    expect(b?.dedupe).toBe(dedupeOf(B));
    expect(b?.dedupe).not.toBe(stores.dedupe);
  });
});
