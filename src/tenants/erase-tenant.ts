import type { QueuedEventErasure } from '../coordination/erase-queued-events.js';
import { DEFAULT_TENANT, parseTenantId, type TenantId } from '../model/tenant-id.js';
import type { Runtime } from '../runtime/runtime.js';
import { auditedWrite } from '../store/audit/audited-write.js';
import type { TenantStores, TenantSummary } from '../store/tenant-stores.js';
import type { AnyTrigger } from '../triggers/define-trigger.js';
import { TRIGGERS_PLAN } from '../triggers/entitlements.js';
import type { SubscriptionRemoval } from '../triggers/remove-at-provider.js';
import { TriggerSubscriptions } from '../triggers/trigger-subscriptions.js';

/** What erasing a tenant needs: its stores, and a runtime and registry to remove its webhooks at the providers first. */
export interface TenantErasureOptions {
  tenantStores: TenantStores;
  tenant: TenantId;
  /** A runtime of that tenant (`new Runtime({ tenant, tenantStores })`): its connections remove the webhooks and rules. */
  runtime: Runtime;
  /** Where trigger ids resolve: the registry. */
  triggers: {
    /** The trigger a subscription names; it throws an InputError for an unknown id, which this passes on. */
    requireTrigger(id: string): AnyTrigger;
  };
  /**
   * Deletes the tenant's events from a queue (`eraseQueuedEvents`, with
   * `listen --queue`): they carry its providers' payloads.
   */
  queuedEvents?: (tenant: TenantId) => Promise<QueuedEventErasure>;
  /** Who asked, as the erasure's audit record names it; default `library`. */
  caller?: string;
}

/** What an erasure did: each subscription's removal at its provider, then what was deleted. */
export interface TenantErasure {
  tenant: TenantId;
  subscriptions: SubscriptionRemoval[];
  /** With `queuedEvents`: what it deleted from the queue. */
  queuedEvents?: QueuedEventErasure;
  erased: TenantSummary;
}

/**
 * Erases a tenant: first removes each of its trigger subscriptions at the
 * provider (rule, then webhook, as `triggers remove` does), while its
 * connections still exist to do it with; then its queued events; then deletes every record the
 * backend holds for it, and with them its data key, so a copy of its
 * records (a backup) no longer opens. A provider that cannot be reached
 * stops the erasure with its error before anything is deleted beyond the
 * subscriptions already removed: run it again to finish.
 * @throws InputError for a malformed tenant id; the provider's error when a removal fails.
 */
export async function eraseTenant(options: TenantErasureOptions): Promise<TenantErasure> {
  const tenant = parseTenantId(options.tenant);
  const { tenantStores } = options;
  // The record goes to the deployment's own trail (the default tenant's): the erased tenant keeps
  // nothing, not even a trail that says it was erased, and its id names the target.
  const audit = { now: Date.now, trail: tenantStores.forTenant(DEFAULT_TENANT).audit };
  const entry = { action: 'tenant.erase' as const, target: tenant, caller: options.caller ?? 'library' };
  return auditedWrite(audit, entry, () => erase(tenant, options));
}

async function erase(tenant: TenantId, options: TenantErasureOptions): Promise<TenantErasure> {
  if (options.runtime.tenant !== tenant) {
    throw new TypeError(
      `eraseTenant of ${tenant} needs a runtime of ${tenant}, not of ${options.runtime.tenant}.`,
    );
  }
  const view = options.tenantStores.forTenant(tenant);
  // Removing is allowed on any plan: a tenant whose plan lapsed must still be erasable.
  const manager = new TriggerSubscriptions({
    triggers: options.triggers,
    runtime: options.runtime,
    subscriptions: view.subscriptions,
    entitlements: { plan: TRIGGERS_PLAN },
  });
  const subscriptions: SubscriptionRemoval[] = [];
  for (const subscription of await view.subscriptions.list()) {
    subscriptions.push(await manager.remove(subscription.id));
  }
  const queuedEvents = await options.queuedEvents?.(tenant);
  const erased = await options.tenantStores.eraseTenant(tenant);
  return { tenant, subscriptions, ...(queuedEvents ? { queuedEvents } : {}), erased };
}
