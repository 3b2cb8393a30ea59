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
  /** Authorization codes live 120 s (T's rule). */
  codeTtlMs?: number;
  clients: OAuthClient[];
}

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
  accessTokenTtlMs: number | undefined;

  constructor(private readonly options: OAuthProviderOptions) {
    for (const client of options.clients) this.clients.set(client.id, client);
    this.accessTokenTtlMs = options.accessTokenTtlMs;
  }

  private token(kind: string): string {
    return `${this.options.tokenPrefix}_${kind}_${randomBytes(24).toString('base64url')}`;
  }

  /** Issues tokens directly, as if the user had completed the flow (for tests and the demo's seed). */
  issue(account: string, userId: number, scopes: string[], clientId = 'toolsteps-cli') {
    const now = this.options.clock.now();
    const accessToken = this.token('at');
    const expiresAt = this.accessTokenTtlMs === undefined ? undefined : now + this.accessTokenTtlMs;
    let refreshToken: string | undefined;
    if (this.options.issuesRefreshTokens) {
      refreshToken = this.token('rt');
      this.refresh.set(refreshToken, {
        account,
        userId,
        clientId,
        scopes,
        expiresAt: now + (this.options.refreshTokenTtlMs ?? 30 * 24 * 3600_000),
        accessToken,
      });
    }
    this.access.set(accessToken, {
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
      }),
    };
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

  /** The token endpoint: authorization_code and refresh_token grants. */
  exchange(body: unknown, account: string): Reply {
    const params = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const get = (name: string) => (typeof params[name] === 'string' ? (params[name] as string) : undefined);
    const invalid = (description: string, error = 'invalid_grant') =>
      json(400, { error, error_description: description });
    const client = this.clients.get(get('client_id') ?? '');
    if (!client) return json(401, { error: 'invalid_client', error_description: 'Unknown client.' });
    if (client.secret && !(get('client_secret') && safeEqual(get('client_secret')!, client.secret))) {
      return json(401, { error: 'invalid_client', error_description: 'Client authentication failed.' });
    }
    const now = this.options.clock.now();
    const grantType = get('grant_type');
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
      return json(200, this.issue(account, grant.userId, grant.scopes, client.id));
    }
    if (grantType === 'refresh_token') {
      this.grants.refresh_token += 1;
      if (!this.options.issuesRefreshTokens)
        return invalid('This provider does not issue refresh tokens.', 'unsupported_grant_type');
      const token = get('refresh_token') ?? '';
      const grant = this.refresh.get(token);
      if (!grant || grant.account !== account || grant.clientId !== client.id) {
        return invalid('The refresh token is invalid or was already used.');
      }
      if (grant.expiresAt <= now) return invalid('The refresh token has expired.');
      // Rotation: the old pair dies now.
      this.refresh.delete(token);
      this.access.delete(grant.accessToken);
      return json(200, this.issue(account, grant.userId, grant.scopes, client.id));
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
   * Everything issued for one account, access and refresh tokens alike,
   * stops working: what a provider does when its admin removes the app's
   * access, so the only way back is signing in again.
   */
  revokeAccount(account: string): void {
    for (const [token, grant] of this.access) if (grant.account === account) this.access.delete(token);
    for (const [token, grant] of this.refresh) if (grant.account === account) this.refresh.delete(token);
  }

  reset(): void {
    this.codes.clear();
    this.access.clear();
    this.refresh.clear();
    this.grants.authorization_code = 0;
    this.grants.refresh_token = 0;
  }
}
