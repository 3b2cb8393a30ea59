import type { PendingRevocation } from '../model/pending-revocation.js';
import type { TenantId } from '../model/tenant-id.js';
import type { AuditTrail } from './audit/audit-trail.js';
import type { ConnectionStore } from './connection-store.js';
import type { TenantLimitStore } from './limit-store.js';
import type { RecordStore } from './record-store.js';
import type { SubscriptionStore } from './subscription-store.js';
import type { TokenRevocations } from './token-revocations.js';

/**
 * The records of one tenant. Nothing reached through these views can read,
 * list or change another tenant's records: the tenant is part of every key
 * the view builds, never something a caller passes per call.
 */
export interface TenantScopedStores {
  readonly tenant: TenantId;
  readonly connections: ConnectionStore;
  readonly subscriptions: SubscriptionStore;
  /** The tenant's audit trail of write and destructive step runs. */
  readonly audit: AuditTrail;
  /** The tenant's fair-share limits (calls per minute, credits per day). */
  readonly limits: TenantLimitStore;
}

/** How many records one tenant holds, per kind; no secret, no record content. */
export interface TenantSummary {
  readonly tenant: TenantId;
  readonly connections: number;
  readonly subscriptions: number;
}

/**
 * A backend (memory, files, Redis, Postgres) holding many tenants' records.
 * Every surface asks it for one tenant's view and works only through that.
 */
export interface TenantStores {
  /** Revoked scoped tokens, per tenant, in the same backend as the records. */
  readonly revocations: TokenRevocations;
  /**
   * Removed connections whose revocation at the provider failed and is to
   * be tried again (`retryPendingRevocations`), every tenant's (each record
   * names its tenant), sealed as the backend seals connections. Kept apart
   * from the tenants' own records so that erasing a tenant leaves them to be
   * done. A backend without it reports such a revocation as given up.
   */
  readonly pendingRevocations?: RecordStore<PendingRevocation>;
  /** One tenant's stores; whatever is done through them cannot read or change another tenant's records. */
  forTenant(tenant: TenantId): TenantScopedStores;
  /**
   * Whether the tenant holds a subscription, without making stores for it:
   * a webhook's path names its tenant before anything is verified, so an
   * id from outside must not leave a view (or anything else) behind.
   */
  holdsSubscriptions(tenant: TenantId): Promise<boolean>;
  /** Tenants that hold at least one record, with counts. */
  tenants(): Promise<TenantSummary[]>;
  /**
   * Removes every record of `tenant` from this backend and answers what was
   * there. Deprovisioning at the providers and destroying the tenant's data
   * key are the caller's steps (tenant erasure), before and after this one.
   */
  eraseTenant(tenant: TenantId): Promise<TenantSummary>;
}
