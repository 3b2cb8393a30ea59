import * as z from 'zod';
import { TENANT_ID_PATTERN, type TenantId } from './tenant-id.js';

/** What a scoped token may serve: the MCP server over HTTP, the builder API. */
export const TOKEN_SCOPES = ['mcp', 'builder'] as const;
/** One of `TOKEN_SCOPES`: a token names the servers it may be used on, so an MCP token cannot drive the builder API. */
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** Every scoped token starts with this, so a leaked one is recognisable (and a secret scanner can match it). */
export const TOKEN_PREFIX = 'tst_';

/** The longest life a token may be given; a revocation whose token's expiry is unknown is kept this long. */
export const MAX_TOKEN_TTL_MS = 90 * 24 * 3_600_000;

/** The shortest life a token may be given. */
export const MIN_TOKEN_TTL_MS = 60_000;

/**
 * A token id names its tenant after a dot (`tok_<16 random characters>.<tenant>`):
 * a revocation by id alone then lands in the right tenant's store, and the id
 * is still safe as a file name and a key segment (no slash, never `.` or `..`).
 */
export const TOKEN_ID_PATTERN = /^tok_[A-Za-z0-9_-]{16}\.([a-z0-9][a-z0-9_-]{0,62})$/;

const integrationId = z.string().regex(/^[a-z0-9_]{1,64}$/);

/**
 * The signed part of a token (short names: it rides in every request). Strict:
 * a field this version does not know is refused, not ignored.
 */
export const tokenClaimsSchema = z
  .object({
    v: z.literal(1),
    /** Token id (`TOKEN_ID_PATTERN`). */
    jti: z.string().regex(TOKEN_ID_PATTERN),
    /** Tenant. */
    ten: z.string().regex(TENANT_ID_PATTERN),
    scp: z.array(z.enum(TOKEN_SCOPES)).min(1).max(TOKEN_SCOPES.length),
    /** The only integrations the token reaches; absent: every one. */
    int: z.array(integrationId).min(1).max(64).optional(),
    /** Read-only: nothing that writes. */
    ro: z.boolean(),
    /** Issued at and expires at, in seconds since the epoch. */
    iat: z.number().int().nonnegative(),
    exp: z.number().int().positive(),
  })
  .strict();
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
  return {
    tokenId: claims.jti,
    tenant: claims.ten as TenantId,
    scopes: claims.scp,
    ...(claims.int ? { integrations: claims.int } : {}),
    readOnly: claims.ro,
    expiresAt: new Date(claims.exp * 1000),
  };
}
