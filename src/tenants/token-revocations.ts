import { type Clock, systemClock } from '../clock.js';
import type { TenantId } from './tenant-id.js';

/**
 * Revoked scoped tokens, per tenant. A revocation is kept until the token
 * would have expired anyway (`until`), then forgotten: a verifier refuses
 * an expired token before asking, so the store never grows past the tokens
 * still alive. Every backend (memory, files, Redis, Postgres) has one
 * (`TenantStores.revocations`), so every server of one deployment sees a
 * revocation at its next request.
 */
export interface TokenRevocations {
  /** Refuses the token from now on; the record may be dropped `until` the token would have expired anyway. */
  revoke(tenant: TenantId, tokenId: string, until: Date): Promise<void>;
  /** Whether the token was revoked: asked at every request, in the token's own tenant only. */
  isRevoked(tenant: TenantId, tokenId: string): Promise<boolean>;
}

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
