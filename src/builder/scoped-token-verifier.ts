import { looksLikeScopedToken } from '../tenants/scoped-token.js';
import { type VerifyTokenOptions, verifyToken } from '../tenants/verify-token.js';
import { BUILDER_SCOPE, type BuilderPrincipal, type TokenVerifier } from './token-verifier.js';

/**
 * The tenants' signed scoped tokens as the builder API's verifier: a token
 * must carry the `builder` scope, and is checked against the key and its
 * tenant's revocations at every request.
 */
export function scopedTokenVerifier(options: Omit<VerifyTokenOptions, 'scope'>): TokenVerifier {
  return {
    verifyToken: (bearer) => verifyToken(bearer, { ...options, scope: BUILDER_SCOPE }),
  };
}

/**
 * Session tokens (`toolsteps ui`'s page) and scoped tokens side by side:
 * each bearer goes to the one verifier its shape names (a JWT or a `tst_`
 * token signed, anything else the session table), so neither can be tried
 * against the other.
 */
export function eitherTokenVerifier(sessions: TokenVerifier, scoped: TokenVerifier): TokenVerifier {
  return {
    verifyToken: (bearer): Promise<BuilderPrincipal | undefined> | BuilderPrincipal | undefined =>
      looksLikeScopedToken(bearer) ? scoped.verifyToken(bearer) : sessions.verifyToken(bearer),
  };
}
