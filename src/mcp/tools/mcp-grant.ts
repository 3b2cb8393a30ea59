import type { TenantId } from '../../model/tenant-id.js';
import type { Runtime } from '../../runtime/runtime.js';
import { bearerToken } from '../../server/bearer-token.js';
import type { ScopedPrincipal } from '../../tenants/scoped-token.js';
import { timingSafeEqualText } from '../../values/timing-safe-equal.js';

/**
 * What one HTTP client may reach: one tenant's connections, and within it
 * the token's integrations and read-only flag. A session is bound to the
 * grant that started it.
 */
export interface McpGrant {
  tenant: TenantId;
  /** When set, the only integrations offered. */
  integrations?: readonly string[] | undefined;
  readOnly: boolean;
  /** The scoped token's id; absent for the server's own single token. */
  tokenId?: string | undefined;
}

/**
 * Scoped tokens on the MCP HTTP server: each request's token decides the
 * tenant (never a request parameter). The CLI binds `verify` to
 * `verifyToken(bearer, { keys, revocations, scope: 'mcp' })`.
 */
export interface McpTokenAccess {
  /** The grant of a valid token with the `mcp` scope; rejects for any other (revoked, expired, tampered, another key's). */
  verify(bearer: string): Promise<ScopedPrincipal>;
  /** A runtime over one tenant's connections, made once per tenant the server serves. */
  runtimeFor(tenant: TenantId): Runtime;
}

export interface McpAuthOptions {
  /** The server's single bearer token: it grants the server's own tenant, unrestricted. */
  token?: string | undefined;
  access?: McpTokenAccess | undefined;
  /** The tenant of the server's own runtime. */
  tenant: TenantId;
}

/** Keys of grants already keyed: the server's own grant is one object for every request, keyed once. */
const keys = new WeakMap<McpGrant, string>();

/** The key two grants share when they reach the same tools: a session answers only requests of its own grant. */
export function grantKey(grant: McpGrant): string {
  let key = keys.get(grant);
  if (key === undefined) {
    key = JSON.stringify([grant.tenant, grant.integrations ?? null, grant.readOnly]);
    keys.set(grant, key);
  }
  return key;
}

/** The grant of the server's own tenant, unrestricted: made once per server and handed to `authenticate`. */
export function ownGrant(options: McpAuthOptions): McpGrant {
  return Object.freeze({ tenant: options.tenant, readOnly: false });
}

/**
 * The grant of a request's `Authorization` header: the single token's (the
 * server's tenant, `own`), a scoped token's, or, on a server that asks for
 * no token, `own`. Undefined for every bad token alike, so a missing one and
 * a wrong one are refused in the same words. Only a scoped token is checked
 * asynchronously; every other answer comes at once, so a server without
 * scoped tokens gives no request a turn of the event loop for its token.
 */
export function authenticate(
  authorization: string | undefined,
  options: McpAuthOptions,
  own: McpGrant,
): McpGrant | undefined | Promise<McpGrant | undefined> {
  if (options.token === undefined && !options.access) return own;
  const bearer = bearerToken(authorization);
  if (!bearer) return undefined;
  if (options.token !== undefined && timingSafeEqualText(options.token, bearer)) return own;
  if (!options.access) return undefined;
  return options.access.verify(bearer).then(
    (principal): McpGrant | undefined =>
      principal && {
        tenant: principal.tenant,
        integrations: principal.integrations,
        readOnly: principal.readOnly,
        tokenId: principal.tokenId,
      },
    () => undefined,
  );
}
