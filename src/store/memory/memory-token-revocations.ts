import { type Clock, systemClock } from '../../model/clock.js';
import type { TenantId } from '../../model/tenant-id.js';
import type { TokenRevocations } from '../token-revocations.js';

/** Revocations in this process's memory: for tests and for embedders that run one server. */
export class MemoryTokenRevocations implements TokenRevocations {
  private readonly revoked = new Map<string, number>();

  constructor(private readonly clock: Clock = systemClock) {}

  async revoke(tenant: TenantId, tokenId: string, until: Date): Promise<void> {
    this.forgetExpired();
    const key = `${tenant}/${tokenId}`;
    this.revoked.set(key, Math.max(this.revoked.get(key) ?? 0, until.getTime()));
  }

  async isRevoked(tenant: TenantId, tokenId: string): Promise<boolean> {
    const until = this.revoked.get(`${tenant}/${tokenId}`);
    return until !== undefined && until > this.clock.now();
  }

  /** Drops the tenant's revocations, with its other records (tenant erasure). */
  eraseTenant(tenant: TenantId): void {
    for (const key of this.revoked.keys()) if (key.startsWith(`${tenant}/`)) this.revoked.delete(key);
  }

  private forgetExpired(): void {
    const now = this.clock.now();
    for (const [key, until] of this.revoked) if (until <= now) this.revoked.delete(key);
  }
}
