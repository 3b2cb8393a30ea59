import { bearerToken } from '../server/bearer-token.js';
import { ApiRefusal } from './api-refusal.js';
import { BUILDER_SCOPE, type BuilderPrincipal, type TokenVerifier } from './token-verifier.js';

/**
 * The claims of the request's bearer token, when it is valid and carries
 * the builder scope. Which check failed is not said beyond 401 or 403.
 */
export async function bearerClaims(
  authorization: string | undefined,
  tokens: TokenVerifier,
): Promise<BuilderPrincipal> {
  const bearer = bearerToken(authorization);
  if (bearer === undefined) throw new ApiRefusal(401, 'unauthorized', 'A bearer token is required.');
  const claims = await Promise.resolve()
    .then(() => tokens.verifyToken(bearer))
    .catch(() => undefined);
  if (!claims) throw new ApiRefusal(401, 'unauthorized', 'The bearer token is not valid.');
  if (!claims.scopes.includes(BUILDER_SCOPE)) {
    throw new ApiRefusal(403, 'forbidden', `The token lacks the "${BUILDER_SCOPE}" scope.`);
  }
  return claims;
}
