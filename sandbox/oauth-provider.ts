import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../src/model/clock.js';
import { definedOnly } from '../src/values/defined-only.js';
import { json, type Reply, redirect } from './sandbox-http.js';

export interface OAuthClient {
  id: string;
  /** Confidential clients have a secret; public clients must use PKCE. */
  secret?: string;
}

export interface OAuthProviderOptions {
  clock: Clock;
  tokenPrefix: string;
  /** Access token lifetime; undefined issues long-lived tokens (D). */
  accessTokenTtlMs: number | undefined;
  /** Whether refresh tokens are issued; they rotate on every use when they are (T). */
  issuesRefreshTokens: boolean;
  refreshTokenTtlMs?: number;
  /**
   * Whether a client may ask for its tokens' lifetimes (`expires_in`,
   * `refresh_token_expires_in`) on the token endpoint, within these bounds,
   * and is told the refresh token's (T's rule, its token endpoint's table).
   */
  lifetimeRequests?: LifetimeBounds;
  /** Authorization codes live 120 s (T's rule). */
  codeTtlMs?: number;
  clients: OAuthClient[];
}

/** What a client may ask for, in seconds: T's token endpoint gives 5 min to 2 days, and 7 to 90 days. */
export interface LifetimeBounds {
  accessS: { min: number; max: number };
  refreshS: { min: number; max: number };
}

/** Lifetimes a token request asked for, in ms; undefined keeps the provider's default. */
interface AskedLifetimes {
  accessTtlMs?: number;
  refreshTtlMs?: number;
}

/**
 * The provider's one answer to a refresh token it will not take, whatever
 * the reason (unknown, spent, expired, revoked, another client's): the
 * OAuth server behind T (Doorkeeper) says the same words for each, so a
 * client cannot tell them apart, and neither may our reading of it.
 */
export const INVALID_GRANT_DESCRIPTION =
  'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.';

interface CodeGrant {
  account: string;
  userId: number;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  challenge?: string;
  expiresAt: number;
}

interface AccessGrant {
  /** The token's number at the provider: what its token API names it by (`DELETE /api/v2/oauth/tokens/{id}`). */
  id: number;
  account: string;
  userId: number;
  scopes: string[];
  expiresAt: number | undefined;
  refreshToken?: string;
}

interface RefreshGrant {
  account: string;
  userId: number;
  clientId: string;
  scopes: string[];
  expiresAt: number;
  accessToken: string;
}

export type TokenCheck =
  | { ok: true; account: string; userId: number; scopes: string[] }
  | { ok: false; reason: 'missing' | 'unknown' | 'expired' | 'wrong_account' };

function isLoopbackRedirect(uri: string): boolean {
  try {
    const url = new URL(uri);
    return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  } catch {
    return false;
  }
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * An OAuth 2 authorization server as the emulated providers run it: code
 * flow with PKCE, codes that live 120 s and are single use, expiring access
 * tokens, and refresh tokens that rotate: a refresh invalidates the old pair,
 * so a second refresh with the same token fails with invalid_grant.
 */
export class OAuthProvider {
  private readonly clients = new Map<string, OAuthClient>();
  private readonly codes = new Map<string, CodeGrant>();
  private readonly access = new Map<string, AccessGrant>();
  private readonly refresh = new Map<string, RefreshGrant>();
  /** Counts token endpoint calls by grant type, for assertions. */
  readonly grants = { authorization_code: 0, refresh_token: 0 };
  /** Counts revocations that found a token, and those that did not, for assertions. */
  readonly revocations = { revoked: 0, unknown: 0 };
  private nextTokenId = 1;
  accessTokenTtlMs: number | undefined;

  constructor(private readonly options: OAuthProviderOptions) {
    for (const client of options.clients) this.clients.set(client.id, client);
    this.accessTokenTtlMs = options.accessTokenTtlMs;
  }

  private token(kind: string): string {
    return `${this.options.tokenPrefix}_${kind}_${randomBytes(24).toString('base64url')}`;
  }

  /** Issues tokens directly, as if the user had completed the flow (for tests and the demo's seed). */
  issue(
    account: string,
    userId: number,
    scopes: string[],
    clientId = 'toolsteps-cli',
    asked: AskedLifetimes = {},
  ) {
    const now = this.options.clock.now();
    const accessToken = this.token('at');
    const accessTtlMs = asked.accessTtlMs ?? this.accessTokenTtlMs;
    const expiresAt = accessTtlMs === undefined ? undefined : now + accessTtlMs;
    let refreshToken: string | undefined;
    let refreshExpiresAt: number | undefined;
    if (this.options.issuesRefreshTokens) {
      refreshToken = this.token('rt');
      refreshExpiresAt = now + (asked.refreshTtlMs ?? this.options.refreshTokenTtlMs ?? 30 * 24 * 3600_000);
      this.refresh.set(refreshToken, {
        account,
        userId,
        clientId,
        scopes,
        expiresAt: refreshExpiresAt,
        accessToken,
      });
    }
    this.access.set(accessToken, {
      id: this.nextTokenId++,
      account,
      userId,
      scopes,
      expiresAt,
      ...definedOnly({ refreshToken }),
    });
    return {
      access_token: accessToken,
      token_type: 'bearer',
      scope: scopes.join(' '),
      ...definedOnly({
        expires_in: expiresAt === undefined ? undefined : Math.round((expiresAt - now) / 1000),
        refresh_token: refreshToken,
        refresh_token_expires_in:
          this.options.lifetimeRequests && refreshExpiresAt !== undefined
            ? Math.round((refreshExpiresAt - now) / 1000)
            : undefined,
      }),
    };
  }

  /**
   * The lifetimes a token request asks for, checked against the provider's
   * bounds: a value outside them is refused (400 invalid_request), as T's
   * token endpoint refuses it, rather than silently clamped. A provider
   * that takes no such request ignores the fields.
   */
  private askedLifetimes(params: Record<string, unknown>): AskedLifetimes | Reply {
    const bounds = this.options.lifetimeRequests;
    if (!bounds) return {};
    const seconds = (name: string) => {
      const value = params[name];
      return value === undefined || value === null ? undefined : Number(value);
    };
    const accessS = seconds('expires_in');
    const refreshS = seconds('refresh_token_expires_in');
    const outside = (value: number | undefined, range: { min: number; max: number }) =>
      value !== undefined && !(Number.isInteger(value) && value >= range.min && value <= range.max);
    const refused = (name: string, range: { min: number; max: number }) =>
      json(400, {
        error: 'invalid_request',
        error_description: `${name} must be a whole number of seconds from ${range.min} to ${range.max}.`,
      });
    if (outside(refreshS, bounds.refreshS)) return refused('refresh_token_expires_in', bounds.refreshS);
    const accessMax = Math.min(bounds.accessS.max, refreshS ?? Number.POSITIVE_INFINITY);
    if (outside(accessS, { min: bounds.accessS.min, max: accessMax })) {
      return refused('expires_in', { min: bounds.accessS.min, max: accessMax });
    }
    return definedOnly({
      accessTtlMs: accessS === undefined ? undefined : accessS * 1000,
      refreshTtlMs: refreshS === undefined ? undefined : refreshS * 1000,
    });
  }

  /** The sign-in and allow screen, approved at once: the sandbox user always says yes. */
  authorize(query: URLSearchParams, account: string, userId: number): Reply {
    const clientId = query.get('client_id') ?? '';
    const redirectUri = query.get('redirect_uri') ?? '';
    const client = this.clients.get(clientId);
    if (!client) return json(400, { error: 'invalid_client', error_description: 'Unknown client_id.' });
    if (!isLoopbackRedirect(redirectUri)) {
      return json(400, {
        error: 'invalid_request',
        error_description: 'redirect_uri must be a loopback URL in the sandbox.',
      });
    }
    const back = new URL(redirectUri);
    const state = query.get('state');
    if (state) back.searchParams.set('state', state);
    if (query.get('response_type') !== 'code') {
      back.searchParams.set('error', 'unsupported_response_type');
      return redirect(back.toString());
    }
    const challenge = query.get('code_challenge') ?? undefined;
    if (challenge && query.get('code_challenge_method') !== 'S256') {
      back.searchParams.set('error', 'invalid_request');
      return redirect(back.toString());
    }
    if (!client.secret && !challenge) {
      back.searchParams.set('error', 'invalid_request');
      back.searchParams.set('error_description', 'public clients must use PKCE');
      return redirect(back.toString());
    }
    const code = this.token('code');
    this.codes.set(code, {
      account,
      userId,
      clientId,
      redirectUri,
      scopes: (query.get('scope') ?? 'read').split(/[ ,+]+/).filter(Boolean),
      ...definedOnly({ challenge }),
      expiresAt: this.options.clock.now() + (this.options.codeTtlMs ?? 120_000),
    });
    back.searchParams.set('code', code);
    return redirect(back.toString());
  }

  /** Why a request's client is not let in (unknown, or a confidential one without its secret), or undefined. */
  clientRefusal(params: Record<string, unknown>): Reply | undefined {
    const client = this.clients.get(typeof params.client_id === 'string' ? params.client_id : '');
    if (!client) return json(401, { error: 'invalid_client', error_description: 'Unknown client.' });
    const secret = typeof params.client_secret === 'string' ? params.client_secret : undefined;
    if (client.secret && !(secret && safeEqual(secret, client.secret))) {
      return json(401, { error: 'invalid_client', error_description: 'Client authentication failed.' });
    }
    return undefined;
  }

  /** The token endpoint: authorization_code and refresh_token grants. */
  exchange(body: unknown, account: string): Reply {
    const params = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const get = (name: string) => (typeof params[name] === 'string' ? (params[name] as string) : undefined);
    const invalid = (description: string, error = 'invalid_grant') =>
      json(400, { error, error_description: description });
    const client = this.clients.get(get('client_id') ?? '');
    const refusal = this.clientRefusal(params);
    if (refusal || !client) return refusal ?? json(401, { error: 'invalid_client' });
    const now = this.options.clock.now();
    const grantType = get('grant_type');
    const asked = this.askedLifetimes(params);
    if ('status' in asked) return asked;
    if (grantType === 'authorization_code') {
      this.grants.authorization_code += 1;
      const code = get('code') ?? '';
      const grant = this.codes.get(code);
      this.codes.delete(code); // single use, even when the exchange fails
      if (!grant || grant.account !== account) return invalid('The authorization code is invalid.');
      if (grant.expiresAt <= now) return invalid('The authorization code has expired.');
      if (grant.clientId !== client.id || grant.redirectUri !== get('redirect_uri')) {
        return invalid('The code was issued to another client or redirect_uri.');
      }
      if (grant.challenge) {
        const verifier = get('code_verifier') ?? '';
        const computed = createHash('sha256').update(verifier).digest('base64url');
        if (!safeEqual(computed, grant.challenge)) return invalid('PKCE verification failed.');
      }
      return json(200, this.issue(account, grant.userId, grant.scopes, client.id, asked));
    }
    if (grantType === 'refresh_token') {
      this.grants.refresh_token += 1;
      if (!this.options.issuesRefreshTokens)
        return invalid('This provider does not issue refresh tokens.', 'unsupported_grant_type');
      const token = get('refresh_token') ?? '';
      const grant = this.refresh.get(token);
      // Unknown, spent, revoked, expired or another client's: one answer (INVALID_GRANT_DESCRIPTION).
      if (!grant || grant.account !== account || grant.clientId !== client.id || grant.expiresAt <= now) {
        return invalid(INVALID_GRANT_DESCRIPTION);
      }
      // Rotation: the old pair dies now.
      this.refresh.delete(token);
      this.access.delete(grant.accessToken);
      return json(200, this.issue(account, grant.userId, grant.scopes, client.id, asked));
    }
    return invalid(`Unsupported grant_type "${grantType ?? ''}".`, 'unsupported_grant_type');
  }

  check(accessToken: string | undefined, account?: string): TokenCheck {
    if (!accessToken) return { ok: false, reason: 'missing' };
    const grant = this.access.get(accessToken);
    if (!grant) return { ok: false, reason: 'unknown' };
    if (grant.expiresAt !== undefined && grant.expiresAt <= this.options.clock.now())
      return { ok: false, reason: 'expired' };
    if (account !== undefined && grant.account !== account) return { ok: false, reason: 'wrong_account' };
    return { ok: true, account: grant.account, userId: grant.userId, scopes: grant.scopes };
  }

  /** Revokes one access token, as an admin would, to test re-authorisation. */
  revoke(accessToken: string): void {
    this.access.delete(accessToken);
  }

  /**
   * Revokes a grant the way a client asks its provider to: the access token
   * and the refresh token issued with it both stop working. `which` names
   * the access token itself (`current`, T's form, or an RFC 7009 `token`),
   * or its number (`id`), which only the same account may revoke. Returns
   * whether a token was found; either way is counted.
   */
  revokeGrant(which: { token: string } | { id: number; account: string }): boolean {
    // RFC 7009 lets a client revoke with the refresh token too; its access token goes with it.
    const refresh = 'token' in which ? this.refresh.get(which.token) : undefined;
    if (refresh && 'token' in which) {
      this.refresh.delete(which.token);
      this.access.delete(refresh.accessToken);
      this.revocations.revoked += 1;
      return true;
    }
    const found =
      'token' in which
        ? [...this.access].find(([token]) => token === which.token)
        : [...this.access].find(([, grant]) => grant.id === which.id && grant.account === which.account);
    if (!found) {
      this.revocations.unknown += 1;
      return false;
    }
    const [accessToken, grant] = found;
    this.access.delete(accessToken);
    if (grant.refreshToken) this.refresh.delete(grant.refreshToken);
    this.revocations.revoked += 1;
    return true;
  }

  /** The number of the access token `accessToken`, as the provider's token API names it. */
  tokenId(accessToken: string): number | undefined {
    return this.access.get(accessToken)?.id;
  }

  /**
   * Everything issued for one account, access and refresh tokens alike,
   * stops working: what a provider does when its admin removes the app's
   * access, so the only way back is signing in again.
   */
  revokeAccount(account: string): void {
    for (const [token, grant] of this.access) if (grant.account === account) this.access.delete(token);
    for (const [token, grant] of this.refresh) if (grant.account === account) this.refresh.delete(token);
  }

  /**
   * Every access token issued so far expires now, as if the clock had passed
   * them (an evaluation's "expired access token" fault); refresh tokens stay
   * good, so a client that refreshes recovers. Returns how many expired.
   */
  expireAll(): number {
    const now = this.options.clock.now();
    for (const grant of this.access.values()) grant.expiresAt = now;
    return this.access.size;
  }

  reset(): void {
    this.codes.clear();
    this.access.clear();
    this.refresh.clear();
    this.grants.authorization_code = 0;
    this.grants.refresh_token = 0;
    this.revocations.revoked = 0;
    this.revocations.unknown = 0;
  }
}
