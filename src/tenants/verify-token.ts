import { AuthError } from '../errors/auth-error.js';
import { type Clock, systemClock } from '../model/clock.js';
import type { TokenRevocations } from '../store/token-revocations.js';
import { jwtPrincipal } from './jwt-principal.js';
import { LEGACY_TOKEN_PREFIX, legacyPrincipal } from './legacy-token.js';
import type { ScopedPrincipal, TokenScope } from './scoped-token.js';
import type { TokenKeys } from './token-keys.js';

/** What a server checks a bearer against: its keys, the revocations, and the scope of the surface it serves. */
export interface VerifyTokenOptions {
  /** Every key a token may be signed with, found by the token's `kid`. */
  keys: TokenKeys;
  /** Where revocations are kept; every verified token is looked up in its tenant's. */
  revocations: TokenRevocations;
  /** The scope the caller serves; a token without it is refused. */
  scope: TokenScope;
  clock?: Clock | undefined;
}

/** Longest bearer text read at all: a token is a few hundred characters. */
export const MAX_TOKEN_CHARS = 4096;

/**
 * One refusal for every reason (malformed, tampered, another key, expired,
 * revoked, wrong scope): a caller, hostile or not, learns only that this
 * token does not open this door.
 */
function refused(): AuthError {
  return new AuthError(
    'The token is not valid here: it may be malformed, expired, revoked or for another use.',
    {
      sent: false,
    },
  );
}

/** What a token grants if one of `keys` signed it, read in its own format (JWT, or `tst_` until those expire). */
function signedPrincipal(bearer: string, keys: TokenKeys, now: number): Promise<ScopedPrincipal | undefined> {
  if (bearer.length > MAX_TOKEN_CHARS) return Promise.resolve(undefined);
  if (bearer.startsWith(LEGACY_TOKEN_PREFIX)) return Promise.resolve(legacyPrincipal(bearer, keys));
  return jwtPrincipal(bearer, keys, now);
}

/**
 * Checks a bearer token and answers what it grants: signed with one of
 * `keys` (HS256, the key its `kid` names), within its times by `clock`,
 * carrying `scope`, and not revoked in its tenant. The tenant comes from the
 * signed claims only, never from anything else in the request.
 * @throws AuthError (`auth_failed`), the same one for every reason.
 */
export async function verifyToken(bearer: unknown, options: VerifyTokenOptions): Promise<ScopedPrincipal> {
  const now = (options.clock ?? systemClock).now();
  const principal = typeof bearer === 'string' ? await signedPrincipal(bearer, options.keys, now) : undefined;
  if (!principal) throw refused();
  if (principal.expiresAt.getTime() <= now) throw refused();
  if (!principal.scopes.includes(options.scope)) throw refused();
  if (await options.revocations.isRevoked(principal.tenant, principal.tokenId)) throw refused();
  return principal;
}
