import { resolveBaseUrl } from '../../src/connection/connection-fields.js';
import {
  authorizeViaLoopback,
  followAuthorizeRedirects,
} from '../../src/connection/loopback-authorization.js';
import type { TokenSet } from '../../src/connection/oauth-client.js';
import type { Connection } from '../../src/model/connection.js';
import type { Integration } from '../../src/model/define-integration.js';
import { definedOnly } from '../../src/values/defined-only.js';
import type { DemoContext } from './demo-context.js';

/**
 * Connects a demo account through the real OAuth code flow (loopback
 * callback, PKCE) against the sandbox, which approves at once, and stores
 * the connection in the demo's in-memory store.
 */
export async function connectWithOAuth(
  demo: DemoContext,
  connection: { id: string; integration: string; label: string; fields: Record<string, string> },
): Promise<TokenSet> {
  const integration = demo.registry.integration(connection.integration) as Integration;
  const fields = { ...connection.fields, clientId: 'toolsteps-cli' };
  const tokens = await authorizeViaLoopback({
    integration,
    baseUrl: resolveBaseUrl(integration, { fields }),
    clientId: 'toolsteps-cli',
    fetch: demo.runtime.fetch,
    dispatcher: demo.runtime.httpDispatcher,
    clock: demo.runtime.clock,
    openAuthorizeUrl: (url) => followAuthorizeRedirects(url),
  });
  const now = Date.now();
  const stored: Connection = {
    id: connection.id,
    integration: integration.id,
    label: connection.label,
    kind: integration.connection.kind,
    fields,
    secrets: {
      accessToken: tokens.accessToken,
      ...definedOnly({ refreshToken: tokens.refreshToken }),
    },
    ...definedOnly({ expiresAt: tokens.expiresAt }),
    createdAt: now,
    updatedAt: now,
  };
  await demo.runtime.store.put(stored);
  return tokens;
}
