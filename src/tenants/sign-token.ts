import { randomBytes } from 'node:crypto';
import { InputError } from '../errors/input-error.js';
import { checkRecord } from '../model/check-record.js';
import { type Clock, systemClock } from '../model/clock.js';
import { parseTenantId, type TenantId } from '../model/tenant-id.js';
import { TOKEN_ALGORITHM } from './jwt-principal.js';
import { loadJose } from './load-jose.js';
import {
  audienceOf,
  MAX_TOKEN_TTL_MS,
  MIN_TOKEN_TTL_MS,
  principalOf,
  type ScopedPrincipal,
  type TokenScope,
  tokenClaimsSchema,
} from './scoped-token.js';
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
  /** The key that signs (`TokenKeys.signing`); its id goes in the header as `kid`. */
  key: TokenKey;
  /** Who the token is for, in the embedder's words (`sub`): carried for its own records, granting nothing. */
  subject?: string | undefined;
  clock?: Clock | undefined;
}

/** A new token, and what it grants (its id, tenant and expiry are safe to show and store; the token is not). */
export interface SignedToken extends ScopedPrincipal {
  token: string;
}

/**
 * Makes a scoped token: a JWT signed with HS256 under the key's `kid`
 * (docs/tenants.md#scoped-tokens lists its claims). The claims are checked
 * with the same schema a verifier reads them with, so nothing is signed that
 * could not be verified.
 * @throws InputError for a tenant, scope, integration or lifetime out of range.
 */
export async function signToken(options: SignTokenOptions): Promise<SignedToken> {
  const tenant = parseTenantId(options.tenant);
  const now = (options.clock ?? systemClock).now();
  if (!(options.ttlMs >= MIN_TOKEN_TTL_MS && options.ttlMs <= MAX_TOKEN_TTL_MS)) {
    throw new InputError('A token lives from 1 minute to 90 days.', [
      { path: 'ttl', message: `${MIN_TOKEN_TTL_MS} to ${MAX_TOKEN_TTL_MS} ms` },
    ]);
  }
  const audiences = [...new Set(options.scopes)].map(audienceOf);
  const claims = checkRecord(tokenClaimsSchema, 'token', {
    jti: `tok_${randomBytes(12).toString('base64url')}.${tenant}`,
    aud: audiences.length === 1 ? audiences[0]! : audiences,
    iat: Math.floor(now / 1000),
    exp: Math.floor((now + options.ttlMs) / 1000),
    ...(options.subject === undefined ? {} : { sub: options.subject }),
    toolsteps: {
      tenant,
      ...(options.integrations ? { integrations: [...new Set(options.integrations)] } : {}),
      readOnly: options.readOnly ?? false,
    },
  });
  const { SignJWT } = await loadJose();
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: TOKEN_ALGORITHM, typ: 'JWT', kid: options.key.id })
    .sign(options.key.secretKey());
  return { token, ...principalOf(claims) };
}
