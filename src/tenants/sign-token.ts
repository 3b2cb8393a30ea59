import { randomBytes } from 'node:crypto';
import { type Clock, systemClock } from '../clock.js';
import { InputError } from '../errors/input-error.js';
import { checkRecord } from '../store/check-record.js';
import {
  MAX_TOKEN_TTL_MS,
  MIN_TOKEN_TTL_MS,
  principalOf,
  type ScopedPrincipal,
  TOKEN_PREFIX,
  type TokenScope,
  tokenClaimsSchema,
} from './scoped-token.js';
import { parseTenantId, type TenantId } from './tenant-id.js';
import type { TokenKey } from './token-key.js';

/** What a new token grants: one tenant, its scopes, and what narrows them; the key stays the caller's. */
export interface SignTokenOptions {
  tenant: TenantId;
  scopes: readonly TokenScope[];
  /** The only integrations the token reaches; absent: every one. */
  integrations?: readonly string[] | undefined;
  readOnly?: boolean | undefined;
  /** How long the token works: 1 minute to 90 days. */
  ttlMs: number;
  key: TokenKey;
  clock?: Clock | undefined;
}

/** A new token, and what it grants (its id, tenant and expiry are safe to show and store; the token is not). */
export interface SignedToken extends ScopedPrincipal {
  token: string;
}

/**
 * Makes a scoped token: `tst_<claims, base64url JSON>.<HMAC-SHA256 of
 * everything before the dot, base64url>`. The claims are checked with the
 * same schema a verifier reads them with, so nothing is signed that could
 * not be verified.
 * @throws InputError for a tenant, scope, integration or lifetime out of range.
 */
export function signToken(options: SignTokenOptions): SignedToken {
  const tenant = parseTenantId(options.tenant);
  const now = (options.clock ?? systemClock).now();
  if (!(options.ttlMs >= MIN_TOKEN_TTL_MS && options.ttlMs <= MAX_TOKEN_TTL_MS)) {
    throw new InputError('A token lives from 1 minute to 90 days.', [
      { path: 'ttl', message: `${MIN_TOKEN_TTL_MS} to ${MAX_TOKEN_TTL_MS} ms` },
    ]);
  }
  const claims = checkRecord(tokenClaimsSchema, 'token', {
    v: 1,
    jti: `tok_${randomBytes(12).toString('base64url')}.${tenant}`,
    ten: tenant,
    scp: [...new Set(options.scopes)],
    ...(options.integrations ? { int: [...new Set(options.integrations)] } : {}),
    ro: options.readOnly ?? false,
    iat: Math.floor(now / 1000),
    exp: Math.floor((now + options.ttlMs) / 1000),
  });
  const body = `${TOKEN_PREFIX}${Buffer.from(JSON.stringify(claims), 'utf8').toString('base64url')}`;
  return { token: `${body}.${options.key.sign(body)}`, ...principalOf(claims) };
}
