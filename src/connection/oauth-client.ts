import type { Dispatcher } from 'undici';
import type { Clock } from '../clock.js';
import { AuthError, NetworkError, ProviderError, TimeoutError, ToolstepsError } from '../errors/index.js';
import { basicCredential, redactSecrets, redactThenCut } from '../errors/redaction.js';
import type { Integration, OAuthSettings } from '../step/define-integration.js';
import { readTokenAnswer, type TokenSet } from './token-response.js';

export type { TokenSet } from './token-response.js';

/** The default deadline of one token request, headers and body together. */
export const DEFAULT_TOKEN_TIMEOUT_MS = 30_000;
/** How much of a token endpoint's error text we keep, after redaction. */
const PROVIDER_TEXT_LIMIT = 300;
/** A token answer is a few hundred bytes; anything this large is not one. */
const TOKEN_ANSWER_LIMIT = 256 * 1024;

export interface TokenEndpointOptions {
  integration: Integration;
  baseUrl: string;
  fetch: typeof globalThis.fetch;
  /** undefined: fetch's own global dispatcher. */
  dispatcher: Dispatcher | undefined;
  clock: Clock;
  signal?: AbortSignal;
  /**
   * One deadline for the whole request, headers and body: the transport's
   * idle timeouts do not stop an endpoint that trickles a byte every few
   * seconds, and a refresh holds the connection's lock while it waits.
   */
  timeoutMs?: number;
  /** Every other secret of the connection, redacted from what the endpoint says as well as those sent. */
  knownSecrets?: readonly (string | undefined)[];
  /**
   * Called with a well-formed rotated refresh token that came in an answer
   * we cannot use otherwise: the provider has already spent the old one, so
   * it must be kept before the request fails.
   */
  keepRotatedRefreshToken?: (refreshToken: string) => Promise<void>;
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

interface TokenExchange {
  grant: 'authorization_code' | 'refresh_token';
  params: Record<string, string | undefined>;
  /** The secrets sent, plus the forms we put them in. */
  secrets: string[];
}

/** Sends the request and reads the whole answer under one deadline, so a trickling endpoint cannot hold us. */
async function sendTokenRequest(
  options: TokenEndpointOptions,
  url: string,
  exchange: TokenExchange,
): Promise<{ status: number; ok: boolean; text: string }> {
  const oauth = oauthOf(options.integration);
  const entries = Object.entries(exchange.params).filter(
    (entry): entry is [string, string] => entry[1] !== undefined,
  );
  const json = oauth.tokenRequestEncoding === 'json';
  const body = json ? JSON.stringify(Object.fromEntries(entries)) : new URLSearchParams(entries).toString();
  const where = `POST ${new URL(url).pathname}`;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TOKEN_TIMEOUT_MS;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  try {
    const response = await options.fetch(url, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded',
      },
      body,
      redirect: 'manual',
      signal,
      dispatcher: options.dispatcher,
    } as RequestInit);
    const text = await readCapped(response, TOKEN_ANSWER_LIMIT);
    return { status: response.status, ok: response.ok, text };
  } catch (thrown) {
    if (deadline.aborted) {
      throw new TimeoutError(
        `${where} (token endpoint) did not answer in full within ${timeoutMs} ms; the ${exchange.grant === 'refresh_token' ? 'refresh' : 'code exchange'} was abandoned.`,
        {
          retryable: exchange.grant === 'refresh_token',
          sent: 'unknown',
          context: { method: 'POST', path: new URL(url).pathname },
        },
      );
    }
    if (thrown instanceof ToolstepsError) throw thrown;
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    throw new NetworkError(`${where} (token endpoint at ${new URL(url).host}) failed on the network.`, {
      sent: 'unknown',
      cause: new Error(redactSecrets(message, exchange.secrets)),
    });
  }
}

/** Reads a body up to `limit` bytes; a larger one is refused rather than buffered. */
async function readCapped(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limit) {
      await response.body.cancel().catch(() => undefined);
      throw new ProviderError(
        `The token endpoint answered with more than ${limit} bytes; not a token answer.`,
      );
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The error for a non-2xx answer; everything the endpoint says is redacted, then cut. */
function tokenEndpointRefusal(
  where: string,
  path: string,
  status: number,
  payload: unknown,
  secrets: string[],
) {
  const record = (payload ?? {}) as { error?: unknown; error_description?: unknown };
  const providerCode =
    typeof record.error === 'string' ? redactThenCut(record.error, secrets, 100) : undefined;
  const description =
    typeof record.error_description === 'string'
      ? redactThenCut(record.error_description, secrets, PROVIDER_TEXT_LIMIT)
      : undefined;
  const said = [providerCode, description].filter(Boolean).join(': ');
  const context = { method: 'POST', path };
  if (status === 400 || status === 401) {
    return new AuthError(`${where} refused the grant (${status}${said ? `, ${said}` : ''}).`, {
      status,
      providerCode,
      providerMessage: description,
      sent: true,
      context,
      reauthorize: providerCode === 'invalid_grant',
    });
  }
  return new ProviderError(`${where} failed (${status}${said ? `, ${said}` : ''}).`, {
    status,
    retryable: status >= 500,
    providerCode,
    providerMessage: description,
    sent: true,
    context,
  });
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
