import { AuthError, ProviderError } from '../errors/index.js';
import { basicCredential } from '../errors/redaction.js';
import type { Integration } from '../model/define-integration.js';
import { oauthOf } from './oauth-settings-of.js';
import { tokenEndpointRefusal } from './token-endpoint-refusal.js';
import { sendTokenRequest, type TokenEndpointOptions, type TokenExchange } from './token-request.js';
import { readTokenAnswer, type TokenSet } from './token-response.js';

export type { TokenSet } from './token-response.js';

/**
 * The provider page a user is sent to in order to grant access; the
 * integration knows the path and scope format, the caller brings `state`
 * (and a PKCE challenge) to check the answer against.
 */
export function buildAuthorizeUrl(
  integration: Integration,
  baseUrl: string,
  params: {
    clientId: string;
    redirectUri: string;
    state: string;
    codeChallenge?: string;
    scopes?: readonly string[];
  },
): string {
  const oauth = oauthOf(integration);
  const url = new URL(oauth.authorizeUrl(baseUrl));
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', params.clientId);
  url.searchParams.set('redirect_uri', params.redirectUri);
  url.searchParams.set('state', params.state);
  const scopes = params.scopes ?? oauth.defaultScopes;
  if (scopes.length) url.searchParams.set('scope', scopes.join(oauth.scopeSeparator ?? ' '));
  if (params.codeChallenge) {
    url.searchParams.set('code_challenge', params.codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
  }
  return url.toString();
}

/**
 * One POST to the token endpoint. Never retried once sent: a code is single
 * use, and a refresh token rotates, so a replay after a lost answer would
 * spend the grant twice.
 */
async function postToTokenEndpoint(
  options: TokenEndpointOptions,
  exchange: TokenExchange,
): Promise<TokenSet> {
  const oauth = oauthOf(options.integration);
  // Some providers refresh at another endpoint than the one that exchanges codes.
  const url =
    exchange.grant === 'refresh_token' && oauth.refreshUrl
      ? oauth.refreshUrl(options.baseUrl)
      : oauth.tokenUrl(options.baseUrl);
  const path = new URL(url).pathname;
  const where = `POST ${path}`;
  const answer = await sendTokenRequest(options, url, exchange);
  let payload: unknown;
  try {
    payload = answer.text ? JSON.parse(answer.text) : {};
  } catch {
    payload = {};
  }
  if (!answer.ok) throw tokenEndpointRefusal(where, path, answer.status, payload, exchange.secrets);
  const read = readTokenAnswer(payload, options.clock.now());
  if (read.usable) return read.tokens;
  if (read.rotatedRefreshToken && options.keepRotatedRefreshToken) {
    await options.keepRotatedRefreshToken(read.rotatedRefreshToken);
    throw new ProviderError(
      `${where} answered with an ${read.problem}; the new refresh token it sent was saved, so trying again can refresh.`,
      { retryable: true, sent: true, context: { method: 'POST', path } },
    );
  }
  const spent =
    exchange.grant === 'refresh_token' ? 'the refresh token may have been spent' : 'the code is spent';
  throw new AuthError(`${where} answered with an ${read.problem}; ${spent}, so re-authorisation is needed.`, {
    reauthorize: true,
    sent: true,
    context: { method: 'POST', path },
  });
}

/** Every secret of an exchange in each form we send it: the values, and the HTTP Basic pair of the client. */
function exchangeSecrets(
  clientId: string,
  sent: readonly (string | undefined)[],
  known: readonly (string | undefined)[] = [],
  clientSecret?: string,
): string[] {
  const secrets = [...sent, ...known].filter((value): value is string => Boolean(value));
  if (clientSecret) {
    // RFC 6749 §2.3.1: client_secret_basic form-encodes both halves before base64.
    secrets.push(basicCredential(clientId, clientSecret));
    secrets.push(basicCredential(encodeURIComponent(clientId), encodeURIComponent(clientSecret)));
  }
  return secrets;
}

/**
 * Trades the code from the OAuth redirect for tokens. The answer is
 * validated before anything stores it, and every secret sent is redacted
 * from any error it causes.
 */
export function exchangeCode(
  options: TokenEndpointOptions,
  params: {
    code: string;
    clientId: string;
    clientSecret?: string;
    redirectUri: string;
    codeVerifier?: string;
  },
): Promise<TokenSet> {
  return postToTokenEndpoint(options, {
    grant: 'authorization_code',
    params: {
      grant_type: 'authorization_code',
      code: params.code,
      client_id: params.clientId,
      client_secret: params.clientSecret,
      redirect_uri: params.redirectUri,
      code_verifier: params.codeVerifier,
    },
    secrets: exchangeSecrets(
      params.clientId,
      [params.code, params.clientSecret, params.codeVerifier],
      options.knownSecrets,
      params.clientSecret,
    ),
  });
}

/** Gets a fresh access token with the refresh token; the runtime calls it when a token is near expiry or a call got a 401. */
export function refreshTokens(
  options: TokenEndpointOptions,
  params: { refreshToken: string; clientId: string; clientSecret?: string },
): Promise<TokenSet> {
  return postToTokenEndpoint(options, {
    grant: 'refresh_token',
    params: {
      grant_type: 'refresh_token',
      refresh_token: params.refreshToken,
      client_id: params.clientId,
      client_secret: params.clientSecret,
    },
    secrets: exchangeSecrets(
      params.clientId,
      [params.refreshToken, params.clientSecret],
      options.knownSecrets,
      params.clientSecret,
    ),
  });
}
