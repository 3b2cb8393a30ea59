import type { Dispatcher } from 'undici';
import { z } from 'zod';
import type { Clock } from '../clock.js';
import { AuthError, NetworkError, ProviderError, redactSecrets } from '../errors.js';
import type { Integration, OAuthSettings } from '../integration.js';

/** What a token endpoint answers (RFC 6749 §5.1); providers add fields we ignore. */
const TokenResponse = z.object({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  refresh_token: z.string().min(1).optional(),
  expires_in: z.coerce.number().positive().optional(),
  scope: z.string().optional(),
});

export interface TokenSet {
  accessToken: string;
  refreshToken?: string;
  expiresAt?: number;
  scopes?: string[];
}

export interface TokenEndpointOptions {
  integration: Integration;
  baseUrl: string;
  fetch: typeof globalThis.fetch;
  dispatcher: Dispatcher;
  clock: Clock;
  signal?: AbortSignal;
}

function oauthOf(integration: Integration): OAuthSettings {
  const oauth = integration.connection.oauth;
  if (!oauth) throw new Error(`Integration "${integration.id}" does not use OAuth.`);
  return oauth;
}

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
  params: Record<string, string | undefined>,
  secrets: (string | undefined)[],
): Promise<TokenSet> {
  const oauth = oauthOf(options.integration);
  const url = oauth.tokenUrl(options.baseUrl);
  const entries = Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined);
  const json = oauth.tokenRequestEncoding === 'json';
  const body = json ? JSON.stringify(Object.fromEntries(entries)) : new URLSearchParams(entries).toString();
  const where = `POST ${new URL(url).pathname}`;
  let response: Response;
  try {
    response = await options.fetch(url, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded',
      },
      body,
      redirect: 'manual',
      ...(options.signal ? { signal: options.signal } : {}),
      dispatcher: options.dispatcher,
    } as RequestInit);
  } catch (thrown) {
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    throw new NetworkError(`${where} (token endpoint) failed on the network.`, {
      cause: new Error(redactSecrets(message, secrets)),
    });
  }
  const text = await response.text();
  let payload: unknown;
  try {
    payload = text ? JSON.parse(text) : {};
  } catch {
    payload = {};
  }
  if (!response.ok) {
    const record = (payload ?? {}) as { error?: unknown; error_description?: unknown };
    const providerCode = typeof record.error === 'string' ? record.error : undefined;
    const description =
      typeof record.error_description === 'string'
        ? redactSecrets(record.error_description, secrets)
        : undefined;
    const said = [providerCode, description].filter(Boolean).join(': ');
    const context = { method: 'POST', path: new URL(url).pathname };
    if (response.status === 400 || response.status === 401) {
      throw new AuthError(`${where} refused the grant (${response.status}${said ? `, ${said}` : ''}).`, {
        status: response.status,
        providerCode,
        sent: true,
        context,
        reauthorize: providerCode === 'invalid_grant',
      });
    }
    throw new ProviderError(`${where} failed (${response.status}${said ? `, ${said}` : ''}).`, {
      status: response.status,
      retryable: response.status >= 500,
      providerCode,
      sent: true,
      context,
    });
  }
  const parsed = TokenResponse.safeParse(payload);
  if (!parsed.success) throw new ProviderError(`${where} answered without a usable access token.`);
  const token = parsed.data;
  return {
    accessToken: token.access_token,
    ...(token.refresh_token ? { refreshToken: token.refresh_token } : {}),
    ...(token.expires_in ? { expiresAt: options.clock.now() + token.expires_in * 1000 } : {}),
    ...(token.scope ? { scopes: token.scope.split(/[ ,]+/).filter(Boolean) } : {}),
  };
}

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
  return postToTokenEndpoint(
    options,
    {
      grant_type: 'authorization_code',
      code: params.code,
      client_id: params.clientId,
      client_secret: params.clientSecret,
      redirect_uri: params.redirectUri,
      code_verifier: params.codeVerifier,
    },
    [params.code, params.clientSecret, params.codeVerifier],
  );
}

export function refreshTokens(
  options: TokenEndpointOptions,
  params: { refreshToken: string; clientId: string; clientSecret?: string },
): Promise<TokenSet> {
  return postToTokenEndpoint(
    options,
    {
      grant_type: 'refresh_token',
      refresh_token: params.refreshToken,
      client_id: params.clientId,
      client_secret: params.clientSecret,
    },
    [params.refreshToken, params.clientSecret],
  );
}
