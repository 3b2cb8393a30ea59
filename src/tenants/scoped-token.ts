import * as z from 'zod';
import { TENANT_ID_PATTERN, type TenantId } from '../model/tenant-id.js';
import { TOKEN_ID_PATTERN } from '../model/token-id.js';

/** What a scoped token may serve: the MCP server over HTTP, the builder API. */
export const TOKEN_SCOPES = ['mcp', 'builder'] as const;
/** One of `TOKEN_SCOPES`: a token names the servers it may be used on, so an MCP token cannot drive the builder API. */
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** The longest life a token may be given; a revocation whose token's expiry is unknown is kept this long. */
export const MAX_TOKEN_TTL_MS = 90 * 24 * 3_600_000;

/** The shortest life a token may be given. */
export const MIN_TOKEN_TTL_MS = 60_000;

export { TOKEN_ID_PATTERN };

/** Integration ids as the catalogue spells them. */
export const integrationIdSchema = z.string().regex(/^[a-z0-9_]{1,64}$/);

/** The audience (`aud`) that names a scope: the surface a token may be used on. */
export function audienceOf(scope: TokenScope): `toolsteps:${TokenScope}` {
  return `toolsteps:${scope}`;
}

const audience = z.enum(TOKEN_SCOPES.map(audienceOf) as [string, ...string[]]);

/** Free text a backend may set (`iss`, `sub`): carried, never trusted for anything. */
const note = z.string().min(1).max(256);

/**
 * The claims of a scoped token (a JWT, RFC 7519), checked after `jose` has
 * verified the signature. Registered claims where one fits: `jti` the token
 * id, `aud` the surfaces (`toolsteps:builder`, `toolsteps:mcp`, one or both),
 * `iat`, `exp` and optional `nbf` in seconds; what JWT has no name for sits
 * under one private claim, `toolsteps`. Strict: a field this version does
 * not know is refused, never ignored, so a restriction a newer minter adds
 * cannot be silently dropped by an older server.
 */
export const tokenClaimsSchema = z
  .object({
    /** Token id (`TOKEN_ID_PATTERN`): revocations are filed under it, in the tenant it names. */
    jti: z.string().regex(TOKEN_ID_PATTERN),
    aud: z.union([audience, z.array(audience).min(1).max(TOKEN_SCOPES.length)]),
    iat: z.number().int().nonnegative(),
    exp: z.number().int().positive(),
    nbf: z.number().int().nonnegative().optional(),
    iss: note.optional(),
    sub: note.optional(),
    toolsteps: z
      .object({
        tenant: z.string().regex(TENANT_ID_PATTERN),
        /** The only integrations the token reaches; absent: every one. */
        integrations: z.array(integrationIdSchema).min(1).max(64).optional(),
        /** Nothing that writes. Required: a minter that forgot it does not get writes by default. */
        readOnly: z.boolean(),
      })
      .strict(),
  })
  .strict();
/** The claims of a scoped token once checked: `tokenClaimsSchema`'s output. */
export type TokenClaims = z.infer<typeof tokenClaimsSchema>;

/**
 * What a verified token grants: the shape the builder API's `TokenVerifier`
 * takes (`BuilderPrincipal`), and what the MCP server scopes a session by.
 */
export interface ScopedPrincipal {
  tokenId: string;
  tenant: TenantId;
  scopes: readonly TokenScope[];
  /** When set, the only integrations the token may use. */
  integrations?: readonly string[] | undefined;
  /** When true, nothing that writes (at a provider or in the stores) is allowed. */
  readOnly: boolean;
  expiresAt: Date;
}

/** The tenant a token id names, or undefined for a string that is not a token id. */
export function tenantOfTokenId(id: string): TenantId | undefined {
  return TOKEN_ID_PATTERN.exec(id)?.[1] as TenantId | undefined;
}

/** The principal a token's checked claims describe. */
export function principalOf(claims: TokenClaims): ScopedPrincipal {
  const audiences: readonly string[] = typeof claims.aud === 'string' ? [claims.aud] : claims.aud;
  return {
    tokenId: claims.jti,
    tenant: claims.toolsteps.tenant as TenantId,
    scopes: TOKEN_SCOPES.filter((scope) => audiences.includes(audienceOf(scope))),
    ...(claims.toolsteps.integrations ? { integrations: claims.toolsteps.integrations } : {}),
    readOnly: claims.toolsteps.readOnly,
    expiresAt: new Date(claims.exp * 1000),
  };
}

/**
 * Whether a bearer is one of ours to check (a JWT, or the `tst_` tokens made
 * before JWT): a builder server sends the rest to its session table.
 */
export function looksLikeScopedToken(bearer: string): boolean {
  return bearer.startsWith('tst_') || bearer.startsWith('eyJ');
}
