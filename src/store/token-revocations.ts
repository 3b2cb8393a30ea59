import type { TenantId } from '../model/tenant-id.js';

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
