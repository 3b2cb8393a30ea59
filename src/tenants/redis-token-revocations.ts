import { type Clock, systemClock } from '../clock.js';
import type { RedisCoordinator } from '../coordination/redis-coordinator.js';
import type { TenantId } from './tenant-id.js';
import type { TokenRevocations } from './token-revocations.js';

/**
 * Revocations in Redis, under each tenant's prefix (`<prefix>:t:<tenant>:token-revoked:<id>`),
 * each key expiring when its token would: every server sees a revocation
 * at its next request, and erasing a tenant erases its revocations.
 */
export class RedisTokenRevocations implements TokenRevocations {
  constructor(
    private readonly coordinator: RedisCoordinator,
    private readonly clock: Clock = systemClock,
  ) {}

  async revoke(tenant: TenantId, tokenId: string, until: Date): Promise<void> {
    const ttlMs = until.getTime() - this.clock.now();
    if (ttlMs <= 0) return;
    const key = this.coordinator.forTenant(tenant).key('token-revoked', tokenId);
    await this.coordinator.client.set(key, '1', 'PX', Math.ceil(ttlMs));
  }

  async isRevoked(tenant: TenantId, tokenId: string): Promise<boolean> {
    const key = this.coordinator.forTenant(tenant).key('token-revoked', tokenId);
    return (await this.coordinator.client.get(key)) !== null;
  }
}
