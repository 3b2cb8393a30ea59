import { type Clock, systemClock } from '../clock.js';
import { AuthError } from '../errors/auth-error.js';
import { timingSafeEqualText } from '../triggers/timing-safe-equal.js';
import {
  principalOf,
  type ScopedPrincipal,
  TOKEN_PREFIX,
  type TokenClaims,
  type TokenScope,
  tenantOfTokenId,
  tokenClaimsSchema,
} from './scoped-token.js';
import type { TokenKey } from './token-key.js';
import type { TokenRevocations } from './token-revocations.js';

/** What a server checks a bearer against: its key, the revocations, and the scope of the surface it serves. */
export interface VerifyTokenOptions {
  key: TokenKey;
  /** Where revocations are kept; every verified token is looked up in its tenant's. */
  revocations: TokenRevocations;
  /** The scope the caller serves; a token without it is refused. */
  scope: TokenScope;
  clock?: Clock | undefined;
}

/** Longest bearer text read at all: a token is a few hundred characters. */
const MAX_TOKEN_CHARS = 4096;

const TOKEN_SHAPE = /^tst_([A-Za-z0-9_-]{1,4000})\.([A-Za-z0-9_-]{43})$/;

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

/** The claims of a token whose signature is ours, else undefined. */
function signedClaims(bearer: string, key: TokenKey): TokenClaims | undefined {
  const match = bearer.length <= MAX_TOKEN_CHARS ? TOKEN_SHAPE.exec(bearer) : null;
  if (!match) return undefined;
  const [, payload, signature] = match as unknown as [string, string, string];
  // Compared as canonical base64url text: two spellings of one digest are not both accepted.
  if (!timingSafeEqualText(key.sign(`${TOKEN_PREFIX}${payload}`), signature)) return undefined;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = tokenClaimsSchema.safeParse(decoded);
  // The id names its tenant; a token whose two disagree was not made by `signToken`.
  if (!parsed.success || tenantOfTokenId(parsed.data.jti) !== parsed.data.ten) return undefined;
  return parsed.data;
}

/**
 * Checks a bearer token and answers what it grants: signed with `key`
 * (HMAC-SHA256, compared in constant time), not expired by `clock`, carrying
 * `scope`, and not revoked in its tenant. The tenant comes from the signed
 * claims only, never from anything else in the request.
 * @throws AuthError (`auth_failed`), the same one for every reason.
 */
export async function verifyToken(bearer: unknown, options: VerifyTokenOptions): Promise<ScopedPrincipal> {
  const claims = typeof bearer === 'string' ? signedClaims(bearer, options.key) : undefined;
  if (!claims) throw refused();
  const now = (options.clock ?? systemClock).now();
  if (claims.exp * 1000 <= now || claims.iat > claims.exp) throw refused();
  if (!claims.scp.includes(options.scope)) throw refused();
  const principal = principalOf(claims);
  if (await options.revocations.isRevoked(principal.tenant, principal.tokenId)) throw refused();
  return principal;
}
