import { TenantLimits } from '../../model/tenant-limits.js';
import type { TenantLimitStore } from '../limit-store.js';
import type { TenantGuard } from './tenant-guard.js';

/**
 * One tenant's limits kept in its sealed guard (Redis, Postgres), beside its
 * revocations: a store writer without the keys can neither raise nor remove
 * them. A guard that cannot be proven (deleted, rolled back, changed) throws
 * TamperedRecordError, so a step run is refused rather than run without limits.
 */
export class GuardedLimitStore implements TenantLimitStore {
  constructor(private readonly guard: TenantGuard) {}

  async get(): Promise<TenantLimits> {
    return { ...(await this.guard.state()).limits };
  }

  async set(limits: TenantLimits): Promise<TenantLimits> {
    const checked = TenantLimits.parse(limits);
    await this.guard.update((state) => ({ revoked: state.revoked, limits: checked }));
    return checked;
  }
}
