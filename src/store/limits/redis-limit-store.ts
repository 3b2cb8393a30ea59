import type { RedisCoordinator } from '../../coordination/redis-coordinator.js';
import { parseStoredLimits, type TenantLimitStore, TenantLimits } from '../../tenants/tenant-limits.js';

/** One tenant's limits in `<tenant prefix>:limits:tenant`, kept without expiry: a setting, not state. */
export class RedisLimitStore implements TenantLimitStore {
  readonly key: string;

  constructor(private readonly coordinator: RedisCoordinator) {
    this.key = coordinator.key('limits', 'tenant');
  }

  async get(): Promise<TenantLimits> {
    return parseStoredLimits(await this.coordinator.client.get(this.key));
  }

  async set(limits: TenantLimits): Promise<TenantLimits> {
    const checked = TenantLimits.parse(limits);
    await this.coordinator.client.set(this.key, JSON.stringify(checked));
    return checked;
  }
}
