import type { RevocationSchedule } from '../connection/revocation-schedule.js';
import { revokeOnRemoval } from '../connection/revoke-on-removal.js';
import type { QueuedEventErasure } from '../coordination/erase-queued-events.js';
import type { Integration } from '../model/define-integration.js';
import type { RevocationReport } from '../model/revocation-report.js';
import { DEFAULT_TENANT, parseTenantId, type TenantId } from '../model/tenant-id.js';
import type { Runtime } from '../runtime/runtime.js';
import { auditedWrite } from '../store/audit/audited-write.js';
import type { ConnectionStore } from '../store/connection-store.js';
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
  /** Where trigger ids (and integration ids) resolve: the registry. */
  triggers: {
    /** The trigger a subscription names; it throws an InputError for an unknown id, which this passes on. */
    requireTrigger(id: string): AnyTrigger;
    /**
     * The integration of an id (the registry has it): each connection's grant
     * is revoked at its provider as the integration declares. Without it, no
     * grant is revoked, and the erasure's `connections` says so.
     */
    integration?(id: string): Integration | undefined;
  };
  /** How a revocation that failed for now is retried (it waits in `tenantStores.pendingRevocations`, which outlives the tenant). */
  revocationSchedule?: RevocationSchedule;
  /**
   * Deletes the tenant's events from a queue (`eraseQueuedEvents`, with
   * `listen --queue`): they carry its providers' payloads.
   */
  queuedEvents?: (tenant: TenantId) => Promise<QueuedEventErasure>;
  /** Who asked, as the erasure's audit record names it; default `library`. */
  caller?: string;
}

/** What an erasure did: each subscription's removal at its provider, each connection's revocation there, then what was deleted. */
export interface TenantErasure {
  tenant: TenantId;
  subscriptions: SubscriptionRemoval[];
  /** Each connection's grant at its provider: revoked, pending (kept and retried after the erasure), or why not. */
  connections: { id: string; integration: string; revocation: RevocationReport }[];
  /** With `queuedEvents`: what it deleted from the queue. */
  queuedEvents?: QueuedEventErasure;
  erased: TenantSummary;
}

/**
 * Erases a tenant: first removes each of its trigger subscriptions at the
 * provider (rule, then webhook, as `triggers remove` does), while its
 * connections still exist to do it with; then revokes each connection's grant at its provider
 * (a revocation that fails for now waits, sealed, among the backend's pending revocations, which
 * outlive the tenant, and is retried with backoff); then its queued events; then deletes every record the
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
  const connections = await revokeAll(view.connections, options);
  const queuedEvents = await options.queuedEvents?.(tenant);
  const left = await options.tenantStores.eraseTenant(tenant);
  // The connections went one by one with their revocations: counted with what the backend erased.
  const erased = { ...left, connections: left.connections + connections.length };
  return { tenant, subscriptions, connections, ...(queuedEvents ? { queuedEvents } : {}), erased };
}

/**
 * Revokes every connection's grant, each removed from the store as it goes
 * (the erasure deletes them all next): a revocation is written ahead before
 * its connection goes, so an erasure stopped half way leaves nothing
 * unrevoked and nothing revoked twice.
 */
async function revokeAll(
  store: ConnectionStore,
  options: TenantErasureOptions,
): Promise<TenantErasure['connections']> {
  const reports: TenantErasure['connections'] = [];
  const { runtime } = options;
  for (const connection of await store.list()) {
    const integration = options.triggers.integration?.(connection.integration);
    const { revocation } = await revokeOnRemoval(
      integration,
      connection,
      options.tenant,
      () => store.remove(connection.id),
      {
        store: options.tenantStores.pendingRevocations,
        clock: runtime.clock,
        logger: runtime.logger,
        fetch: runtime.fetch,
        dispatcher: runtime.httpDispatcher,
        schedule: options.revocationSchedule,
      },
    );
    reports.push({ id: connection.id, integration: connection.integration, revocation });
  }
  return reports;
}
