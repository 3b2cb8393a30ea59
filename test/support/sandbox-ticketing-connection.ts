import type { Sandbox } from '../../sandbox/index.js';
import type { Clock } from '../../src/model/clock.js';
import type { Connection } from '../../src/model/connection.js';

/**
 * A ticketing connection to the sandbox's acme account, with tokens the
 * sandbox issues now (as a sign-in would leave them), and the ends of both
 * tokens as the sandbox said them.
 */
export function sandboxTicketingConnection(
  sandbox: Sandbox,
  clock: Pick<Clock, 'now'>,
  id: string,
): Connection {
  const tokens = sandbox.ticketing.issueTokens('acme');
  const now = clock.now();
  return {
    id,
    integration: 'ticketing',
    kind: 'oauth2',
    fields: { subdomain: 'acme', baseUrl: sandbox.baseUrl('ticketing', 'acme'), clientId: 'toolsteps-cli' },
    secrets: { accessToken: tokens.access_token, refreshToken: tokens.refresh_token as string },
    expiresAt: now + (tokens.expires_in as number) * 1000,
    refreshExpiresAt: now + (tokens.refresh_token_expires_in as number) * 1000,
    createdAt: now,
    updatedAt: now,
  };
}
