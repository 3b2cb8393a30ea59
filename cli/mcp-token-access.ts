import type { McpTokenAccess } from '../src/mcp/tools/mcp-grant.js';
import { Runtime } from '../src/runtime/runtime.js';
import { TokenKeys } from '../src/tenants/token-keys.js';
import { verifyToken } from '../src/tenants/verify-token.js';
import { cliStores } from './cli-stores.js';

/**
 * With TOOLSTEPS_TOKEN_KEY (or TOOLSTEPS_TOKEN_KEYS) set, `mcp --http` takes
 * scoped tokens (scope `mcp`): each is checked against the keys and the store's revocations at
 * every request, and its tenant's runtime works over that tenant's records
 * in the CLI's stores, sharing the CLI's coordinator. Undefined without a key.
 */
export async function mcpTokenAccess(
  env: NodeJS.ProcessEnv = process.env,
): Promise<McpTokenAccess | undefined> {
  if (!TokenKeys.configured(env)) return undefined;
  const keys = TokenKeys.fromEnv(env);
  const stores = await cliStores(env);
  const coordination = stores.coordinator ? { coordination: stores.coordinator } : {};
  return {
    verify: (bearer) => verifyToken(bearer, { keys, revocations: stores.tenants.revocations, scope: 'mcp' }),
    runtimeFor: (tenant) =>
      new Runtime({ tenant, tenantStores: stores.tenants, transport: 'undici', ...coordination }),
  };
}
