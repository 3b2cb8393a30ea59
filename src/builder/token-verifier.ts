import type { TenantId } from '../model/tenant-id.js';

/** The scope a token needs for every builder API route. */
export const BUILDER_SCOPE = 'builder';

/**
 * What a verified bearer token grants: the shape of the tenants issue's
 * `VerifiedToken` (scoped tokens), which this server takes as is.
 */
export interface BuilderPrincipal {
  tokenId: string;
  tenant: TenantId;
  scopes: readonly string[];
  /** When set, the only integrations the token may use. */
  integrations?: readonly string[] | undefined;
  /** When true, nothing that writes (at a provider or in the stores) is allowed. */
  readOnly: boolean;
  expiresAt: Date;
}

/**
 * Checks a bearer token and says what it grants. It throws (or answers
 * undefined) for a token that is malformed, forged, expired or revoked; the
 * server answers 401 then, and never says which. The tenants' scoped tokens
 * fit as `{ verifyToken: (bearer) => verifyToken(bearer, { keys, revocations, scope: 'builder' }) }`.
 */
export interface TokenVerifier {
  verifyToken(bearer: string): Promise<BuilderPrincipal | undefined> | BuilderPrincipal | undefined;
}
