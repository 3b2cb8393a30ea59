import type { TenantLimits } from '../model/tenant-limits.js';

/** Where one tenant's limits are kept, beside its other records. */
export interface TenantLimitStore {
  /** The stored limits; `{}` (none) when never set. */
  get(): Promise<TenantLimits>;
  /** Replaces the stored limits (`{}` removes them) and answers what is stored. */
  set(limits: TenantLimits): Promise<TenantLimits>;
}
