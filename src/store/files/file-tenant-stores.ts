import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isMissingFile } from '../../disk/atomic-write.js';
import { defaultToolstepsHome } from '../../disk/toolsteps-home.js';
import { DEFAULT_TENANT, isTenantId, parseTenantId, type TenantId } from '../../model/tenant-id.js';
import { getOrCreate } from '../../values/get-or-create.js';
import type { TenantScopedStores, TenantStores, TenantSummary } from '../tenant-stores.js';
import { byTenantId, summarizeTenant } from '../tenant-summary.js';
import { AUDIT_FOLDER, FileAuditTrail } from './file-audit-trail.js';
import { FileConnectionStore, type FileConnectionStoreOptions } from './file-connection-store.js';
import { FileDedupeStore } from './file-dedupe-store.js';
import { FileLimitStore, LIMITS_FILE } from './file-limit-store.js';
import { FilePendingRevocations } from './file-pending-revocations.js';
import { FileSubscriptionStore } from './file-subscription-store.js';
import { FileTokenRevocations } from './file-token-revocations.js';

/** One tenant's file stores, with the dedupe records of its hooks. */
export interface FileTenantView extends TenantScopedStores {
  readonly connections: FileConnectionStore;
  readonly subscriptions: FileSubscriptionStore;
  readonly dedupe: FileDedupeStore;
  readonly audit: FileAuditTrail;
  readonly limits: FileLimitStore;
}

/** What the default tenant holds directly under the home, where every record lived before tenants. */
const DEFAULT_TENANT_FOLDERS = [
  'connections',
  'subscriptions',
  path.join('triggers', 'dedupe'),
  AUDIT_FOLDER,
  LIMITS_FILE,
  'tokens',
];

/**
 * Every tenant's records in files: tenant `t` under `<home>/tenants/<t>/`
 * (its `connections/`, `subscriptions/`, `triggers/dedupe/`, `audit/trail.jsonl`
 * and `limits.json`), the default
 * tenant directly under `<home>`, exactly where a store written before
 * tenants keeps them, so such a store is the default tenant's as it stands
 * and a single-organization user's files never move. A tenant id is
 * checked (`parseTenantId`) before it becomes a path: no dot, no slash.
 */
export class FileTenantStores implements TenantStores {
  private readonly views = new Map<TenantId, FileTenantView>();
  readonly revocations = new FileTokenRevocations((tenant) => this.homeOf(tenant));

  readonly pendingRevocations: FilePendingRevocations;

  constructor(
    readonly home: string = defaultToolstepsHome(),
    private readonly options: FileConnectionStoreOptions = {},
  ) {
    this.pendingRevocations = new FilePendingRevocations(home);
  }

  /** The folder one tenant's records live under. */
  homeOf(tenant: TenantId): string {
    const id = parseTenantId(tenant);
    return id === DEFAULT_TENANT ? this.home : path.join(this.home, 'tenants', id);
  }

  forTenant(tenant: TenantId): FileTenantView {
    return getOrCreate(this.views, tenant, () => {
      const home = this.homeOf(tenant);
      return {
        tenant,
        connections: new FileConnectionStore(home, this.options),
        subscriptions: new FileSubscriptionStore(home),
        dedupe: new FileDedupeStore(home),
        audit: new FileAuditTrail(home),
        limits: new FileLimitStore(home),
      };
    });
  }

  /** Whether the tenant has a folder of subscriptions, without making stores for it: for ids that come from outside. */
  async holdsSubscriptions(tenant: TenantId): Promise<boolean> {
    const found = await fs.stat(path.join(this.homeOf(tenant), 'subscriptions')).catch(() => undefined);
    return Boolean(found?.isDirectory());
  }

  async tenants(): Promise<TenantSummary[]> {
    const names = await fs.readdir(path.join(this.home, 'tenants')).catch((error: unknown) => {
      if (isMissingFile(error)) return [] as string[];
      throw error;
    });
    const ids = [DEFAULT_TENANT, ...names.filter((name) => isTenantId(name) && name !== DEFAULT_TENANT)];
    const all = await Promise.all(ids.map((id) => summarizeTenant(this.forTenant(id as TenantId))));
    return all.filter((summary) => summary.connections + summary.subscriptions > 0).sort(byTenantId);
  }

  async eraseTenant(tenant: TenantId): Promise<TenantSummary> {
    const summary = await summarizeTenant(this.forTenant(tenant));
    const home = this.homeOf(tenant);
    const folders =
      tenant === DEFAULT_TENANT ? DEFAULT_TENANT_FOLDERS.map((name) => path.join(home, name)) : [home];
    for (const folder of folders) await fs.rm(folder, { recursive: true, force: true });
    this.views.delete(tenant);
    return summary;
  }
}
