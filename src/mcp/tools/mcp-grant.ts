import type { IncomingMessage } from 'node:http';
import type { TenantId } from '../../model/tenant-id.js';
import type { Runtime } from '../../runtime/runtime.js';
import type { GuardRefusal } from '../../server/http-guard.js';
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

/** The key two grants share when they reach the same tools: a session answers only requests of its own grant. */
export function grantKey(grant: McpGrant): string {
  return JSON.stringify([grant.tenant, grant.integrations ?? null, grant.readOnly]);
}

const REFUSED: GuardRefusal = { status: 401, message: 'A bearer token is required.' };

/**
 * The grant of a request: the single token's (the server's tenant), a
 * scoped token's, or, on a server that asks for no token, the server's
 * tenant. One refusal for every bad token, said the same way as a missing one.
 */
export async function authenticate(
  request: IncomingMessage,
  options: McpAuthOptions,
): Promise<McpGrant | GuardRefusal> {
  const own: McpGrant = { tenant: options.tenant, readOnly: false };
  if (options.token === undefined && !options.access) return own;
  const bearer = /^Bearer ([\x21-\x7e]{1,4096})$/i.exec(request.headers.authorization ?? '')?.[1];
  if (!bearer) return REFUSED;
  if (options.token !== undefined && timingSafeEqualText(options.token, bearer)) return own;
  if (!options.access) return REFUSED;
  const principal = await options.access.verify(bearer).catch(() => undefined);
  if (!principal) return REFUSED;
  return {
    tenant: principal.tenant,
    integrations: principal.integrations,
    readOnly: principal.readOnly,
    tokenId: principal.tokenId,
  };
}

/** Whether `authenticate` answered a refusal. */
export function isRefusal(value: McpGrant | GuardRefusal): value is GuardRefusal {
  return 'status' in value;
}
