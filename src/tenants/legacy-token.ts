import * as z from 'zod';
import { TENANT_ID_PATTERN, type TenantId } from '../model/tenant-id.js';
import { timingSafeEqualText } from '../values/timing-safe-equal.js';
import {
  integrationIdSchema,
  type ScopedPrincipal,
  TOKEN_ID_PATTERN,
  TOKEN_SCOPES,
  tenantOfTokenId,
} from './scoped-token.js';
import type { TokenKeys } from './token-keys.js';

/** The prefix of the tokens made before JWT: `tst_<claims>.<HMAC-SHA256>`. */
export const LEGACY_TOKEN_PREFIX = 'tst_';

const LEGACY_SHAPE = /^tst_([A-Za-z0-9_-]{1,4000})\.([A-Za-z0-9_-]{43})$/;

/** The claims those tokens carried (short names), strict as they always were. */
const legacyClaimsSchema = z
  .object({
    v: z.literal(1),
    jti: z.string().regex(TOKEN_ID_PATTERN),
    ten: z.string().regex(TENANT_ID_PATTERN),
    scp: z.array(z.enum(TOKEN_SCOPES)).min(1).max(TOKEN_SCOPES.length),
    int: z.array(integrationIdSchema).min(1).max(64).optional(),
    ro: z.boolean(),
    iat: z.number().int().nonnegative(),
    exp: z.number().int().positive(),
  })
  .strict();

let warned = false;

/**
 * Said once per process, the first time such a token is accepted: the
 * operator learns that clients still hold them, before a release stops
 * reading them.
 */
function warnOnce(): void {
  if (warned) return;
  warned = true;
  process.emitWarning(
    'A scoped token of the tst_ format was accepted: it is still honoured until it expires (90 days at most), but new tokens are JWTs; mint new ones with `toolsteps tokens create` or your own backend (docs/tenants.md#scoped-tokens).',
    { type: 'DeprecationWarning', code: 'TOOLSTEPS_LEGACY_TOKEN' },
  );
}

/**
 * What a `tst_` token grants when one of `keys` signed it (HMAC-SHA256 over
 * everything before the dot, compared in constant time as canonical
 * base64url), else undefined. Kept so tokens issued before the upgrade work
 * until they expire; expiry, scope and revocation are checked by the caller
 * as for a JWT.
 */
export function legacyPrincipal(bearer: string, keys: TokenKeys): ScopedPrincipal | undefined {
  const match = LEGACY_SHAPE.exec(bearer);
  if (!match) return undefined;
  const [, payload, signature] = match as unknown as [string, string, string];
  const body = `${LEGACY_TOKEN_PREFIX}${payload}`;
  // Every key is tried, none stopping early: these tokens name no key.
  const signed = keys.all().filter((key) => timingSafeEqualText(key.sign(body), signature)).length > 0;
  if (!signed) return undefined;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = legacyClaimsSchema.safeParse(decoded);
  // The id names its tenant; a token whose two disagree was not made by us.
  if (!parsed.success || tenantOfTokenId(parsed.data.jti) !== parsed.data.ten) return undefined;
  if (parsed.data.iat > parsed.data.exp) return undefined;
  warnOnce();
  const claims = parsed.data;
  return {
    tokenId: claims.jti,
    tenant: claims.ten as TenantId,
    scopes: claims.scp,
    ...(claims.int ? { integrations: claims.int } : {}),
    readOnly: claims.ro,
    expiresAt: new Date(claims.exp * 1000),
  };
}
