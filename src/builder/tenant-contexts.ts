import type { TenantId } from '../model/tenant-id.js';
import { Runtime } from '../runtime/runtime.js';
import type { TenantScopedStores } from '../store/tenant-stores.js';
import { TRIGGERS_PLAN } from '../triggers/entitlements.js';
import { TriggerSubscriptions } from '../triggers/trigger-subscriptions.js';
import type { BuilderServerOptions } from './builder-options.js';

/** What every request of one tenant works with: only its own records. */
export interface TenantContext {
  tenant: TenantId;
  stores: TenantScopedStores;
  runtime: Runtime;
  subscriptions: TriggerSubscriptions;
}

/** Tenants whose runtimes (rate gates, token refreshers) are kept; past it the oldest is dropped. */
const MAX_KEPT = 256;

/**
 * One runtime and subscription manager per tenant, made on first use and
 * kept, so a tenant's rate gates and refresh single-flight outlive a request.
 */
export class TenantContexts {
  private readonly kept = new Map<TenantId, TenantContext>();

  constructor(private readonly options: BuilderServerOptions) {}

  of(tenant: TenantId): TenantContext {
    const known = this.kept.get(tenant);
    if (known) return known;
    const stores = this.options.tenants.forTenant(tenant);
    const runtime =
      this.options.runtimeFor?.(tenant, stores) ??
      new Runtime({
        tenant,
        store: stores.connections,
        audit: stores.audit,
        limits: stores.limits,
        caller: 'builder',
        ...(this.options.clock ? { clock: this.options.clock } : {}),
      });
    const subscriptions = new TriggerSubscriptions({
      triggers: this.options.registry,
      runtime,
      subscriptions: stores.subscriptions,
      entitlements: this.options.entitlements ?? { plan: TRIGGERS_PLAN },
      ...(this.options.clock ? { clock: this.options.clock } : {}),
    });
    const context = { tenant, stores, runtime, subscriptions };
    if (this.kept.size >= MAX_KEPT) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(tenant, context);
    return context;
  }
}
