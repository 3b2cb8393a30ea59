import type { Sandbox } from '../../sandbox/index.js';
import type { Connection } from '../../src/model/connection.js';
import { definedOnly } from '../../src/values/defined-only.js';

/**
 * An OAuth connection to the sandbox's `acme` help desk with tokens the
 * sandbox has just issued. It expires in an hour unless `expiresAt` says
 * otherwise: refresh tests pass a time in the past so the first call is due.
 */
export function ticketingOAuthConnection(
  sandbox: Sandbox,
  id: string,
  options: { label?: string; now?: number; expiresAt?: number; createdAt?: number } = {},
): Connection {
  const tokens = sandbox.ticketing.issueTokens('acme');
  const now = options.now ?? Date.now();
  const createdAt = options.createdAt ?? now;
  return definedOnly({
    id,
    integration: 'ticketing',
    label: options.label,
    kind: 'oauth2',
    fields: { subdomain: 'acme', baseUrl: sandbox.baseUrl('ticketing', 'acme'), clientId: 'toolsteps-cli' },
    secrets: { accessToken: tokens.access_token, refreshToken: tokens.refresh_token as string },
    expiresAt: options.expiresAt ?? now + 3_600_000,
    createdAt,
    updatedAt: createdAt,
  }) as Connection;
}
