import type { ProtectedHeaderParameters } from 'jose';
import { loadJose } from './load-jose.js';
import {
  MAX_TOKEN_TTL_MS,
  principalOf,
  type ScopedPrincipal,
  tenantOfTokenId,
  tokenClaimsSchema,
} from './scoped-token.js';
import type { TokenKeys } from './token-keys.js';

/** The one algorithm taken: HMAC-SHA256 with a shared key. `none`, RS256 and the rest are refused before any key is used. */
export const TOKEN_ALGORITHM = 'HS256';

/**
 * How far ahead of this server's clock a token's `iat` and `nbf` may be: the
 * minting backend's clock may run a little fast. Never applied to `exp`: a
 * revocation is kept until the token's `exp`, so a token honoured past it
 * would come back to life.
 */
export const TOKEN_CLOCK_SKEW_S = 30;

/**
 * A compact JWS whose header and payload are JSON objects and whose
 * signature is one HS256 digest in canonical base64url (the last character
 * carries no stray bits): one spelling per token.
 */
const JWT_SHAPE = /^eyJ[A-Za-z0-9_-]{1,1000}\.eyJ[A-Za-z0-9_-]{1,3000}\.[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;

/** A JWT is refused whole for any reason, so the reason itself is never needed. */
class UnknownKey extends Error {}

/**
 * What a JWT grants when `keys` holds the key its `kid` names and that key
 * signed it with HS256, its claims pass their schema, and its times hold at
 * `now`; else undefined. `exp` is checked here without leeway, and again by
 * the caller with the rest.
 */
export async function jwtPrincipal(
  bearer: string,
  keys: TokenKeys,
  now: number,
): Promise<ScopedPrincipal | undefined> {
  if (!JWT_SHAPE.test(bearer)) return undefined;
  const { jwtVerify } = await loadJose();
  const keyFor = (header: ProtectedHeaderParameters) => {
    const key = keys.byId(header.kid);
    if (!key) throw new UnknownKey();
    return key.secretKey();
  };
  const verified = await jwtVerify(bearer, keyFor, {
    algorithms: [TOKEN_ALGORITHM],
    clockTolerance: TOKEN_CLOCK_SKEW_S,
    currentDate: new Date(now),
    requiredClaims: ['jti', 'aud', 'iat', 'exp'],
  }).catch(() => undefined);
  const parsed = verified ? tokenClaimsSchema.safeParse(verified.payload) : undefined;
  if (!parsed?.success) return undefined;
  const claims = parsed.data;
  const seconds = now / 1000;
  // The id names its tenant (revocations by id land there); a token whose two disagree is refused.
  if (tenantOfTokenId(claims.jti) !== claims.toolsteps.tenant) return undefined;
  if (claims.exp <= seconds || claims.iat > seconds + TOKEN_CLOCK_SKEW_S) return undefined;
  // As long as any token may live: a backend cannot mint one that outlives its revocation record.
  const tooLong =
    (claims.exp - claims.iat) * 1000 > MAX_TOKEN_TTL_MS || claims.exp * 1000 > now + MAX_TOKEN_TTL_MS;
  if (tooLong || claims.iat > claims.exp) return undefined;
  return principalOf(claims);
}
