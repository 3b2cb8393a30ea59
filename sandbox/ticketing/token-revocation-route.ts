import type { OAuthProvider } from '../oauth-provider.js';
import { json, type Reply } from '../sandbox-http.js';
import { NOT_FOUND } from './ticketing-wire.js';

const TOKEN_PATH = /^\/api\/v2\/oauth\/tokens\/(current|\d+)(\.json)?$/;

/**
 * `DELETE /api/v2/oauth/tokens/{id}` (RevokeOAuthToken in the provider's
 * description): 204, and the token and the refresh token issued with it stop
 * working. `current` names the bearer token of the request itself, which is
 * how a client that holds only its own token revokes its grant; a number
 * names a token of the same account. Undefined when the request is not this route.
 */
export function revokeTokenRoute(
  oauth: OAuthProvider,
  request: { method: string; path: string },
  bearer: string,
  account: string,
): Reply | undefined {
  const match = TOKEN_PATH.exec(request.path);
  if (request.method !== 'DELETE' || !match) return undefined;
  const which = match[1] === 'current' ? { token: bearer } : { id: Number(match[1]), account };
  return oauth.revokeGrant(which) ? { status: 204 } : json(404, NOT_FOUND);
}
