import { bearerToken } from '../server/bearer-token.js';
import { ApiRefusal } from './api-refusal.js';
import { BUILDER_SCOPE, type BuilderPrincipal, type TokenVerifier } from './token-verifier.js';

/** Claims a verifier answered (undefined: not valid), held to the builder scope. */
function scopedClaims(claims: BuilderPrincipal | undefined): BuilderPrincipal {
  if (!claims) throw new ApiRefusal(401, 'unauthorized', 'The bearer token is not valid.');
  if (!claims.scopes.includes(BUILDER_SCOPE)) {
    throw new ApiRefusal(403, 'forbidden', `The token lacks the "${BUILDER_SCOPE}" scope.`);
  }
  return claims;
}

/**
 * The claims of the request's bearer token, when it is valid and carries
 * the builder scope; else the refusal, thrown (or rejected, when the
 * verifier answers later). Which check failed is not said beyond 401 or 403.
 * A verifier that answers at once (session tokens) is answered at once, so
 * the request's hook need not wait a turn; a verifier that throws or
 * rejects says the token is not valid.
 */
export function bearerClaims(
  authorization: string | undefined,
  tokens: TokenVerifier,
): BuilderPrincipal | Promise<BuilderPrincipal> {
  const bearer = bearerToken(authorization);
  if (bearer === undefined) throw new ApiRefusal(401, 'unauthorized', 'A bearer token is required.');
  let verified: ReturnType<TokenVerifier['verifyToken']>;
  try {
    verified = tokens.verifyToken(bearer);
  } catch {
    verified = undefined;
  }
  if (typeof (verified as PromiseLike<unknown> | undefined)?.then !== 'function') {
    return scopedClaims(verified as BuilderPrincipal | undefined);
  }
  return Promise.resolve(verified).then(scopedClaims, () => scopedClaims(undefined));
}
