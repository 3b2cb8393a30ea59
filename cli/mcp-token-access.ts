import type { McpTokenAccess } from '../src/agents/mcp/mcp-grant.js';
import { Runtime } from '../src/runtime/runtime.js';
import { TokenKey } from '../src/tenants/token-key.js';
import { verifyToken } from '../src/tenants/verify-token.js';
import { cliStores } from './cli-stores.js';

/**
 * With TOOLSTEPS_TOKEN_KEY set, `mcp --http` takes scoped tokens (scope
 * `mcp`): each is checked against the key and the store's revocations at
 * every request, and its tenant's runtime works over that tenant's records
 * in the CLI's stores, sharing the CLI's coordinator. Undefined without a key.
 */
export async function mcpTokenAccess(
  env: NodeJS.ProcessEnv = process.env,
): Promise<McpTokenAccess | undefined> {
  if (!TokenKey.configured(env)) return undefined;
  const key = TokenKey.fromEnv(env);
  const stores = await cliStores(env);
  const coordination = stores.coordinator ? { coordination: stores.coordinator } : {};
  return {
    verify: (bearer) => verifyToken(bearer, { key, revocations: stores.tenants.revocations, scope: 'mcp' }),
    runtimeFor: (tenant) =>
      new Runtime({ tenant, tenantStores: stores.tenants, transport: 'undici', ...coordination }),
  };
}
