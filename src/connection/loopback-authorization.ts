import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Dispatcher } from 'undici';
import { AuthError, InputError, NetworkError, TimeoutError } from '../errors/index.js';
import { requestTarget } from '../http/request-target.js';
import type { Clock } from '../model/clock.js';
import type { Integration } from '../model/define-integration.js';
import { buildAuthorizeUrl, exchangeCode, type TokenSet } from './oauth-client.js';
import { createPkcePair, randomState } from './pkce.js';
import { DEFAULT_TOKEN_TIMEOUT_MS } from './token-request.js';

export interface LoopbackAuthorizationOptions {
  integration: Integration;
  baseUrl: string;
  clientId: string;
  clientSecret?: string;
  scopes?: readonly string[];
  /** Shows the sign-in page: opens a browser, prints the URL, or (in the demo) follows it. */
  openAuthorizeUrl(url: string): Promise<void>;
  fetch: typeof globalThis.fetch;
  /** undefined: fetch's own global dispatcher. */
  dispatcher: Dispatcher | undefined;
  clock: Clock;
  timeoutMs?: number;
  /** The refresh-token lifetime to ask for, in seconds, where the provider lets the client choose. */
  refreshTokenLifetimeS?: number;
  /**
   * Port of the callback server, `http://127.0.0.1:<port>/callback`. 0 (the
   * default) takes any free port, which the sandbox accepts; a real
   * provider compares the redirect URL with the one registered for the
   * client, so its exact port must be given.
   */
  callbackPort?: number;
}

const PAGE = (message: string) =>
  `<!doctype html><meta charset="utf-8"><title>toolsteps</title><p>${message}</p><p>You can close this window.</p>`;

/** Starts the callback server; a taken or forbidden port is the caller's to change. */
async function listenOnLoopback(server: http.Server, port: number): Promise<void> {
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InputError(`The callback port must be 0-65535, got ${port}.`, [
      { path: 'callbackPort', message: '0-65535' },
    ]);
  }
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') {
      throw new InputError(
        `The OAuth callback cannot listen on 127.0.0.1:${port} (${code === 'EADDRINUSE' ? 'the port is in use' : 'permission denied'}). Free the port or choose the one registered with the provider. Nothing was sent.`,
        [{ path: 'callbackPort', message: code === 'EADDRINUSE' ? 'in use' : 'not allowed' }],
        { cause: error },
      );
    }
    throw new NetworkError(`The OAuth callback server could not start on 127.0.0.1:${port}.`, {
      retryable: false,
      sent: false,
      cause: error,
    });
  }
}

/**
 * The OAuth code flow for a terminal (RFC 8252): a one-shot callback server
 * on 127.0.0.1, PKCE S256, and a `state` that must come back unchanged.
 */
export async function authorizeViaLoopback(options: LoopbackAuthorizationOptions): Promise<TokenSet> {
  const pkce = createPkcePair();
  const state = randomState();
  let settle!: (result: { code: string } | { error: Error }) => void;
  const outcome = new Promise<{ code: string } | { error: Error }>((resolve) => {
    settle = resolve;
  });
  const server = http.createServer((request, response) => {
    const url = requestTarget(request, 'http://127.0.0.1');
    if (url?.pathname !== '/callback') {
      response.writeHead(404).end();
      return;
    }
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    if (url.searchParams.get('state') !== state) {
      response
        .writeHead(400, { 'content-type': 'text/html' })
        .end(PAGE('The sign-in answer did not match this request.'));
      settle({ error: new AuthError('The OAuth callback carried the wrong state; the flow was abandoned.') });
      return;
    }
    if (error || !code) {
      response.writeHead(400, { 'content-type': 'text/html' }).end(PAGE('Access was not granted.'));
      settle({ error: new AuthError(`The provider did not grant access (${error ?? 'no code'}).`) });
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE('Connected.'));
    settle({ code });
  });
  await listenOnLoopback(server, options.callbackPort ?? 0);
  const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  const timer = setTimeout(
    () => settle({ error: new TimeoutError('Nobody completed the sign-in in time.') }),
    options.timeoutMs ?? 5 * 60_000,
  );
  try {
    const authorizeUrl = buildAuthorizeUrl(options.integration, options.baseUrl, {
      clientId: options.clientId,
      redirectUri,
      state,
      codeChallenge: pkce.challenge,
      ...(options.scopes ? { scopes: options.scopes } : {}),
    });
    await options.openAuthorizeUrl(authorizeUrl);
    const result = await outcome;
    if ('error' in result) throw result.error;
    return await exchangeCode(
      {
        integration: options.integration,
        baseUrl: options.baseUrl,
        fetch: options.fetch,
        dispatcher: options.dispatcher,
        clock: options.clock,
        ...(options.refreshTokenLifetimeS ? { refreshTokenLifetimeS: options.refreshTokenLifetimeS } : {}),
      },
      {
        code: result.code,
        clientId: options.clientId,
        redirectUri,
        codeVerifier: pkce.verifier,
        ...(options.clientSecret ? { clientSecret: options.clientSecret } : {}),
      },
    );
  } finally {
    clearTimeout(timer);
    server.closeAllConnections();
    server.close();
  }
}

/** Redirects the walk follows: the sandbox needs two (authorize, callback). */
const MAX_AUTHORIZE_HOPS = 5;

/**
 * Plays the user's browser against a sandbox that approves at once: follows
 * the authorize URL's redirects until the loopback callback is reached.
 * The whole walk has one deadline (`timeoutMs`, the token request's by
 * default): a sign-in page that never answers, or trickles its headers,
 * would otherwise hold `connect` past its own sign-in timeout, which only
 * starts counting once the page has been shown.
 */
export async function followAuthorizeRedirects(
  url: string,
  fetchImpl: typeof globalThis.fetch = fetch,
  timeoutMs: number = DEFAULT_TOKEN_TIMEOUT_MS,
): Promise<void> {
  const deadline = AbortSignal.timeout(timeoutMs);
  let next = url;
  for (let hop = 0; hop < MAX_AUTHORIZE_HOPS; hop += 1) {
    let response: Response;
    try {
      response = await fetchImpl(next, { redirect: 'manual', signal: deadline });
    } catch (error) {
      if (!deadline.aborted) throw error;
      // Origin and path only: the query carries the state and, at the callback, the code.
      const { origin, pathname } = new URL(next);
      throw new TimeoutError(
        `GET ${origin}${pathname} (the sign-in page) did not answer within ${timeoutMs} ms; the sign-in was abandoned.`,
        { retryable: false, sent: 'unknown', context: { method: 'GET', path: pathname } },
      );
    }
    // Only the status and Location are read: the body goes unread on every path, so it is cancelled
    // (a cancel after the deadline fired rejects, and there is nothing left to free then).
    await response.body?.cancel().catch(() => undefined);
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) {
      if (response.status >= 400) throw new AuthError(`The sign-in page answered ${response.status}.`);
      return;
    }
    next = new URL(location, next).toString();
  }
  // Returning here would leave authorizeViaLoopback waiting its whole sign-in timeout for a callback that never comes.
  throw new AuthError(
    `The sign-in page redirected more than ${MAX_AUTHORIZE_HOPS} times without reaching the callback; the sign-in was abandoned.`,
  );
}
