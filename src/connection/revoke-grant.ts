import { AuthError, isToolstepsError } from '../errors/index.js';
import type { Clock } from '../model/clock.js';
import { type Connection, secretValues } from '../model/connection.js';
import type { GrantRevocation, Integration } from '../model/define-integration.js';
import { resolveBaseUrl } from './connection-fields.js';
import { refreshTokens } from './oauth-client.js';
import { type RevocationTransport, sendRevocationRequest } from './revocation-request.js';

/**
 * What one try at revoking a grant found. `failed` is `retryable` when it
 * may pass (5xx, 408, 429, a timeout, the network); `connection` is the
 * connection as it now stands when the try renewed its tokens on the way
 * (their predecessors are dead), so a retry sends the new ones.
 */
export type GrantAttempt =
  | { state: 'revoked' }
  | { state: 'already_ended' | 'not_revocable'; reason: string }
  | FailedAttempt;

/** A try that did not get the grant revoked. */
interface FailedAttempt {
  state: 'failed';
  retryable: boolean;
  code: string;
  status?: number;
  reason: string;
  connection?: Connection;
}

/** What revoking needs besides the connection: the token transport, and the clock an access token's end is read against. */
export interface RevokeGrantOptions extends RevocationTransport {
  clock: Clock;
}

/** Statuses worth a later try: the provider's trouble, not its refusal. */
function retryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

function statusFailure(status: number, connection?: Connection): GrantAttempt {
  const retryable = retryableStatus(status);
  return {
    state: 'failed',
    retryable,
    code: retryable ? 'revocation_failed' : 'revocation_refused',
    status,
    reason: retryable
      ? `the provider answered ${status}; the revocation is kept and tried again`
      : `the provider refused the revocation (${status}); end the grant in the provider's settings`,
    ...(connection ? { connection } : {}),
  };
}

function thrownFailure(error: unknown, connection?: Connection): FailedAttempt {
  const code = isToolstepsError(error) ? error.code : 'internal_error';
  return {
    state: 'failed',
    retryable: code === 'timeout' || code === 'network_error' || (isToolstepsError(error) && error.retryable),
    code,
    reason: `the revocation could not be sent (${code}); it is kept and tried again`,
    ...(connection ? { connection } : {}),
  };
}

/**
 * Renews an access token past its end with the refresh token, so a bearer
 * revocation has a token the provider accepts. The provider's rotation kills
 * the old pair; the new pair is what is revoked. Undefined when the
 * connection cannot be renewed (no refresh token or client id).
 */
async function renewed(
  integration: Integration,
  connection: Connection,
  options: RevokeGrantOptions,
): Promise<Connection | GrantAttempt | undefined> {
  const { refreshToken, clientSecret } = connection.secrets;
  const clientId = connection.fields.clientId;
  if (!refreshToken || !clientId || !integration.connection.oauth) return undefined;
  try {
    const tokens = await refreshTokens(
      {
        integration,
        baseUrl: resolveBaseUrl(integration, connection),
        fetch: options.fetch,
        dispatcher: options.dispatcher,
        clock: options.clock,
        knownSecrets: secretValues(connection),
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      },
      { refreshToken, clientId, ...(clientSecret ? { clientSecret } : {}) },
    );
    const { expiresAt, refreshExpiresAt } = tokens;
    return {
      ...connection,
      secrets: {
        ...connection.secrets,
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken ?? refreshToken,
      },
      ...(expiresAt !== undefined ? { expiresAt } : {}),
      ...(refreshExpiresAt !== undefined ? { refreshExpiresAt } : {}),
    };
  } catch (error) {
    // The provider refused the refresh token: the grant it belonged to has already ended.
    if (error instanceof AuthError) {
      return { state: 'already_ended', reason: 'the provider no longer accepts the refresh token' };
    }
    return thrownFailure(error);
  }
}

/** Sends one request to the declared endpoint: its status, or the failure a broken request is. */
async function statusOf(
  integration: Integration,
  declared: GrantRevocation,
  connection: Connection,
  options: RevokeGrantOptions,
  request: { method: 'DELETE' | 'POST'; headers: Record<string, string>; body?: string },
): Promise<number | FailedAttempt> {
  const url = declared.url(resolveBaseUrl(integration, connection));
  try {
    return await sendRevocationRequest(options, { ...request, url }, secretValues(connection));
  } catch (error) {
    return thrownFailure(error);
  }
}

/** T's form: DELETE with the access token as bearer; one renewal when the token is past its end or refused. */
async function bearerDelete(
  integration: Integration,
  declared: GrantRevocation,
  connection: Connection,
  options: RevokeGrantOptions,
): Promise<GrantAttempt> {
  let current = connection;
  let renewedOnce = false;
  const renew = async (): Promise<GrantAttempt | undefined> => {
    renewedOnce = true;
    const next = await renewed(integration, current, options);
    if (next === undefined) return undefined;
    if ('state' in next) return next;
    current = next;
    return undefined;
  };
  const expired = current.expiresAt !== undefined && current.expiresAt <= options.clock.now();
  if (expired || !current.secrets.accessToken) {
    const ended = await renew();
    if (ended) return ended;
  }
  for (;;) {
    const accessToken = current.secrets.accessToken;
    if (!accessToken)
      return { state: 'not_revocable', reason: 'the connection holds no access token to revoke with' };
    const changed = current === connection ? undefined : current;
    const headers = { authorization: `Bearer ${accessToken}`, accept: 'application/json' };
    const status = await statusOf(integration, declared, current, options, { method: 'DELETE', headers });
    if (typeof status !== 'number') return changed ? { ...status, connection: changed } : status;
    if (status >= 200 && status < 300) return { state: 'revoked' };
    if (status === 404) return { state: 'already_ended', reason: 'the provider no longer knows the token' };
    if (status === 401 && !renewedOnce && current.secrets.refreshToken) {
      const ended = await renew();
      if (ended) return ended;
      if (current !== connection) continue;
    }
    if (status === 401)
      return { state: 'already_ended', reason: 'the provider no longer accepts the access token' };
    return statusFailure(status, changed);
  }
}

/** RFC 7009: the refresh token, then the access token, each in a form with the client's credentials. */
async function rfc7009(
  integration: Integration,
  declared: GrantRevocation,
  connection: Connection,
  options: RevokeGrantOptions,
): Promise<GrantAttempt> {
  const clientId = connection.fields.clientId;
  if (!clientId) {
    return {
      state: 'failed',
      retryable: false,
      code: 'revocation_refused',
      reason: 'the connection has no OAuth client id (field clientId) to revoke with',
    };
  }
  const { refreshToken, accessToken, clientSecret } = connection.secrets;
  const tokens = [
    ...(refreshToken ? [{ token: refreshToken, hint: 'refresh_token' }] : []),
    ...(accessToken ? [{ token: accessToken, hint: 'access_token' }] : []),
  ];
  for (const { token, hint } of tokens) {
    const form = new URLSearchParams({ token, token_type_hint: hint, client_id: clientId });
    if (clientSecret) form.set('client_secret', clientSecret);
    const headers = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    const request = { method: 'POST' as const, headers, body: form.toString() };
    const status = await statusOf(integration, declared, connection, options, request);
    if (typeof status !== 'number') return status;
    // RFC 7009 §2.2.1: `unsupported_token_type` (400) for a type it cannot revoke; the other may still go.
    if (status === 400 && hint === 'access_token') continue;
    if (status < 200 || status >= 300) return statusFailure(status);
  }
  return { state: 'revoked' };
}

/**
 * Why a connection's grant cannot be revoked at its provider, with no
 * request made: the integration declares no way, or the connection holds no
 * token the way applies to. Undefined when there is something to send.
 */
export function notRevocable(integration: Integration, connection: Connection): string | undefined {
  const declared = integration.connection.revocation;
  if (!declared) return `${integration.title} declares no way to revoke a grant at the provider`;
  if ('unavailable' in declared) return declared.unavailable;
  const { accessToken, refreshToken } = connection.secrets;
  if (!accessToken && !refreshToken) return 'the connection holds no token to revoke';
  if (declared.withoutRefreshToken && !refreshToken) return declared.withoutRefreshToken;
  return undefined;
}

/**
 * One try at giving a removed connection's grant back to its provider, as
 * the integration declares (`connection.revocation`): its refresh token and
 * its access token both end where the provider allows. No token appears in
 * what it answers or throws. It never throws for the provider's answer or
 * the network: those are `failed`, retryable or not.
 */
export async function revokeGrant(
  integration: Integration,
  connection: Connection,
  options: RevokeGrantOptions,
): Promise<GrantAttempt> {
  const reason = notRevocable(integration, connection);
  const declared = integration.connection.revocation;
  if (reason !== undefined || !declared || 'unavailable' in declared) {
    return { state: 'not_revocable', reason: reason ?? 'no way to revoke' };
  }
  return declared.kind === 'bearer_delete'
    ? bearerDelete(integration, declared, connection, options)
    : rfc7009(integration, declared, connection, options);
}
