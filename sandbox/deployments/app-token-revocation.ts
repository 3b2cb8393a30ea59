import type { OAuthProvider } from '../oauth-provider.js';
import { isJsonObject, json, type Reply } from '../sandbox-http.js';

/**
 * `POST /login/oauth/token/revoke`, the revocation endpoint "Sign in with
 * Vercel" apps' metadata lists (RFC 7009; provider-facts, unverified): a
 * form with `token` (access or refresh) and the client's credentials. 200
 * whether or not the token was known, as RFC 7009 §2.2 says, so a client
 * learns nothing from it; a client that does not authenticate is 401
 * `invalid_client`. Integration tokens (long-lived, from
 * /v2/oauth/access_token) have no such endpoint.
 */
export function revokeAppToken(oauth: OAuthProvider, body: unknown): Reply {
  const params = isJsonObject(body) ? body : {};
  const refusal = oauth.clientRefusal(params);
  if (refusal) return refusal;
  const token = typeof params.token === 'string' ? params.token : '';
  if (!token) return json(400, { error: 'invalid_request', error_description: 'token is required.' });
  oauth.revokeGrant({ token });
  return json(200, {});
}
