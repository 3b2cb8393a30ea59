import type { Dispatcher } from 'undici';
import type { Clock } from '../clock.js';
import { AuthError, ToolstepsError } from '../errors/index.js';
import type { Logger } from '../logger.js';
import type { Integration } from '../step/define-integration.js';
import type { ConnectionStore } from '../store/connections/connection-store.js';
import { definedOnly } from '../values/defined-only.js';
import { type Connection, secretValues } from './connection.js';
import { resolveBaseUrl } from './connection-fields.js';
import { refreshTokens } from './oauth-client.js';
import type { TokenSet } from './token-response.js';

export interface TokenRefresherOptions {
  store: ConnectionStore;
  clock: Clock;
  fetch: typeof globalThis.fetch;
  /** undefined: fetch's own global dispatcher. */
  dispatcher: Dispatcher | undefined;
  logger: Logger;
  /** Refresh this long before expiry, so a token never dies mid-run. */
  marginMs: number;
  /** The deadline of one token request, headers and body (default `DEFAULT_TOKEN_TIMEOUT_MS`). */
  timeoutMs?: number;
}

/**
 * Keeps OAuth connections fresh. Refresh is single-flight per connection:
 * however many invocations find the token expiring at once, one request goes
 * to the token endpoint and every caller gets its result. The rotated
 * refresh token is written to the store before anyone may use the new access
 * token, because the provider has already invalidated the old pair.
 */
export class TokenRefresher {
  private readonly inFlight = new Map<string, Promise<Connection>>();
  refreshCount = 0;

  constructor(private readonly options: TokenRefresherOptions) {}

  /**
   * Due inside the margin, but never earlier than half the token's life: a
   * provider may issue 5-minute tokens, and refreshing those on every call
   * would rotate the pair each time. The life is measured from the last save.
   */
  needsRefresh(connection: Connection): boolean {
    if (connection.expiresAt === undefined) return false;
    const lifetime = connection.expiresAt - connection.updatedAt;
    const margin = lifetime > 0 ? Math.min(this.options.marginMs, lifetime / 2) : this.options.marginMs;
    return connection.expiresAt - this.options.clock.now() <= margin;
  }

  canRefresh(integration: Integration, connection: Connection): boolean {
    return Boolean(integration.connection.oauth?.refreshes && connection.secrets.refreshToken);
  }

  /**
   * Returns a connection whose token is good for at least the margin.
   * `rejectedToken` is the access token a provider just refused with 401: the
   * connection is refreshed unless someone already replaced that token.
   */
  async fresh(integration: Integration, connection: Connection, rejectedToken?: string): Promise<Connection> {
    const due = rejectedToken !== undefined || this.needsRefresh(connection);
    if (!due) return connection;
    if (!this.canRefresh(integration, connection)) {
      if (rejectedToken !== undefined || (connection.expiresAt ?? Infinity) <= this.options.clock.now()) {
        throw new AuthError(
          `The token of connection "${connection.id}" has expired and cannot be refreshed; it needs re-authorisation (run: toolsteps connect ${connection.integration} --id ${connection.id}).`,
          { reauthorize: true },
        );
      }
      return connection;
    }
    const running = this.inFlight.get(connection.id);
    if (running) return running;
    const { store } = this.options;
    const locked = store.withConnectionLock
      ? store.withConnectionLock(connection.id, () => this.refresh(integration, connection.id, rejectedToken))
      : this.refresh(integration, connection.id, rejectedToken);
    const work = locked.finally(() => {
      this.inFlight.delete(connection.id);
    });
    this.inFlight.set(connection.id, work);
    return work;
  }

  private async refresh(integration: Integration, id: string, rejectedToken?: string): Promise<Connection> {
    const { store, clock } = this.options;
    const current = await store.get(id);
    if (!current) {
      throw new AuthError(
        `Connection "${id}" is not in the connection store, so its token cannot be refreshed and saved: store it and invoke by id to get automatic refresh.`,
        { reauthorize: true },
      );
    }
    // Another process or an earlier flight may have refreshed it already.
    const alreadyReplaced = rejectedToken !== undefined && current.secrets.accessToken !== rejectedToken;
    if (alreadyReplaced || (rejectedToken === undefined && !this.needsRefresh(current))) return current;
    const refreshToken = current.secrets.refreshToken;
    const clientId = current.fields.clientId;
    if (!refreshToken || !clientId) {
      const missing = refreshToken ? 'OAuth client id (field clientId)' : 'refresh token';
      throw new AuthError(
        `Connection "${id}" has no ${missing}, so its token cannot be refreshed; it needs re-authorisation.`,
        {
          reauthorize: true,
        },
      );
    }
    this.refreshCount += 1;
    this.options.logger.info('refreshing token', { connection: id });
    let tokens: TokenSet;
    try {
      tokens = await refreshTokens(
        {
          integration,
          baseUrl: resolveBaseUrl(integration, current),
          fetch: this.options.fetch,
          dispatcher: this.options.dispatcher,
          clock,
          knownSecrets: secretValues(current),
          keepRotatedRefreshToken: (rotated) => this.keepRotated(integration, id, rotated),
          ...definedOnly({ timeoutMs: this.options.timeoutMs }),
        },
        { refreshToken, clientId, ...definedOnly({ clientSecret: current.secrets.clientSecret }) },
      );
    } catch (error) {
      // A store without a cross-process lock: another process may have rotated the pair first.
      const latest = error instanceof AuthError ? await store.get(id) : undefined;
      if (latest && latest.secrets.refreshToken !== refreshToken && !this.needsRefresh(latest)) return latest;
      if (error instanceof AuthError) {
        throw new AuthError(
          `${error.message} Connection "${id}" needs re-authorisation (run: toolsteps connect ${integration.id} --id ${id}).`,
          { ...error.asInit(), retryable: false, reauthorize: true },
        );
      }
      throw error;
    }
    return this.save(integration, id, tokens, refreshToken);
  }

  /**
   * Saves a refreshed pair. The provider has already spent the old refresh
   * token, so a pair that cannot be saved is lost: say so, and that the
   * connection needs re-authorisation, rather than fail as bad input. The
   * save is a compare-and-set on the refresh token we spent: a stored pair
   * that no longer holds it is newer than ours (another worker refreshed
   * while our lock had lapsed) and is kept, never overwritten with an older one.
   */
  private async save(
    integration: Integration,
    id: string,
    tokens: TokenSet,
    spent: string,
  ): Promise<Connection> {
    const { store, clock } = this.options;
    try {
      return await store.update(id, (stored) =>
        stored.secrets.refreshToken !== spent
          ? stored
          : {
              ...stored,
              secrets: {
                ...stored.secrets,
                accessToken: tokens.accessToken,
                // Providers that rotate send a new one; keep the old one only if none came back.
                refreshToken: tokens.refreshToken ?? stored.secrets.refreshToken,
              },
              ...definedOnly({ expiresAt: tokens.expiresAt, scopes: tokens.scopes }),
              updatedAt: clock.now(),
            },
      );
    } catch (error) {
      throw new AuthError(
        `The token endpoint issued new tokens for connection "${id}" but they could not be saved (${error instanceof ToolstepsError ? error.code : 'store error'}); the old refresh token is spent, so the connection needs re-authorisation (run: toolsteps connect ${integration.id} --id ${id}).`,
        { reauthorize: true, cause: error },
      );
    }
  }

  /**
   * Keeps a rotated refresh token that came with an otherwise unusable
   * answer, and marks the access token expired so the next use refreshes.
   */
  private async keepRotated(integration: Integration, id: string, refreshToken: string): Promise<void> {
    const { store, clock } = this.options;
    try {
      await store.update(id, (stored) => ({
        ...stored,
        secrets: { ...stored.secrets, refreshToken },
        expiresAt: clock.now(),
        updatedAt: clock.now(),
      }));
    } catch (error) {
      throw new AuthError(
        `The token endpoint rotated the refresh token of connection "${id}" in an unusable answer, and the new one could not be saved; the connection needs re-authorisation (run: toolsteps connect ${integration.id} --id ${id}).`,
        { reauthorize: true, cause: error },
      );
    }
  }
}
