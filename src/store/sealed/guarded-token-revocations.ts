import { EncryptionKeyError, TamperedRecordError } from '../../errors/index.js';
import { type Clock, systemClock } from '../../model/clock.js';
import type { TenantId } from '../../model/tenant-id.js';
import type { TokenRevocations } from '../token-revocations.js';
import type { TenantGuard } from './tenant-guard.js';

/**
 * Revocations kept in each tenant's sealed guard (Redis, Postgres): the
 * list of revoked ids is sealed with the tenant's data key under a version,
 * so a store writer without the keys cannot take one out, and deleting the
 * guard or putting an older copy back is refused (`GuardReading`). When the
 * guard cannot be proven, every token of the tenant counts as revoked: a
 * verifier refuses rather than trust a list it cannot vouch for. One read
 * per request: the guard and the data key that opens it, in one round trip.
 */
export class GuardedTokenRevocations implements TokenRevocations {
  constructor(
    private readonly guardOf: (tenant: TenantId) => TenantGuard,
    private readonly clock: Clock = systemClock,
  ) {}

  async revoke(tenant: TenantId, tokenId: string, until: Date): Promise<void> {
    const now = this.clock.now();
    if (until.getTime() <= now) return;
    await this.guardOf(tenant).update((state) => {
      // Past its token's expiry a revocation is dropped: the list holds only tokens still alive.
      const revoked = Object.fromEntries(Object.entries(state.revoked).filter(([, ms]) => ms > now));
      revoked[tokenId] = Math.max(revoked[tokenId] ?? 0, until.getTime());
      return { revoked, limits: state.limits };
    });
  }

  async isRevoked(tenant: TenantId, tokenId: string): Promise<boolean> {
    try {
      const until = (await this.guardOf(tenant).state()).revoked[tokenId];
      return until !== undefined && until > this.clock.now();
    } catch (error) {
      // Unprovable revocations (deleted, rolled back, changed, or a key we do not hold): refused.
      if (error instanceof TamperedRecordError || error instanceof EncryptionKeyError) return true;
      throw error;
    }
  }
}
