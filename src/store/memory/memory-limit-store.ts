import { TenantLimits } from '../../model/tenant-limits.js';
import type { TenantLimitStore } from '../limit-store.js';

/** A tenant's limits held in memory: for tests, and for embedders that configure them in code. */
export class MemoryLimitStore implements TenantLimitStore {
  private limits: TenantLimits;

  constructor(limits: TenantLimits = {}) {
    this.limits = TenantLimits.parse(limits);
  }

  async get(): Promise<TenantLimits> {
    return { ...this.limits };
  }

  async set(limits: TenantLimits): Promise<TenantLimits> {
    this.limits = TenantLimits.parse(limits);
    return { ...this.limits };
  }
}
