import type { Dispatcher } from 'undici';
import { AuthError } from '../errors/index.js';
import type { Clock } from '../model/clock.js';
import { type Connection, secretValues } from '../model/connection.js';
import type { Integration } from '../model/define-integration.js';
import type { Logger } from '../model/logger.js';
import type { ConnectionStore } from '../store/connection-store.js';
import { MemoryRefreshJournal, type RefreshJournal } from '../store/refresh-journal.js';
import { definedOnly } from '../values/defined-only.js';
import { resolveBaseUrl } from './connection-fields.js';
import { refreshTokens } from './oauth-client.js';
import { recordRefreshFailure } from './record-lifecycle.js';
import { notSavedYet, reauthorizationNeeded } from './refresh-errors.js';
import { observedRefresh } from './refresh-telemetry.js';
import { endsWithin } from './refresh-token-end.js';
import { RefreshWriteAhead } from './refresh-write-ahead.js';
import { TokenKeeper } from './token-keeper.js';
import { DEFAULT_TOKEN_TIMEOUT_MS } from './token-request.js';
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
  /**
   * How long a refresh whose new tokens the store cannot save keeps trying
   * before it fails retryably, still holding them (default 2 minutes: longer
   * than the Redis client waits out a restart).
   */
  saveDeadlineMs?: number;
  /** The refresh-token lifetime to ask for, in seconds, by integration id, where the provider lets the client choose. */
  refreshTokenLifetimes?: Readonly<Record<string, number>>;
}

const DEFAULT_SAVE_DEADLINE_MS = 120_000;
/** Why a refresh runs: a token the provider refused (a 401), or keep-alive's window; neither: the access token is due. */
type RefreshReason = { rejectedToken?: string; aheadMs?: number };
/** Beyond the token request and the save's retries, how long others still wait on a refresh's `sending` entry. */
const CLOCK_MARGIN_MS = 10_000;

/**
 * Keeps OAuth connections fresh. Refresh is single-flight per connection:
 * however many invocations find the token expiring at once, one request goes
 * to the token endpoint and every caller gets its result.
 *
 * A rotating provider spends the old refresh token the moment it answers, so
 * a refresh writes ahead in the store's journal (`RefreshJournal`) before it
 * sends: that it is sending (no one else sends the same token meanwhile),
 * then what came back when the connection cannot save it (`TokenKeeper`),
 * or that the provider refused it. Writing ahead rather than only retrying
 * the save is what lets a pair outlive the process that got it (the file
 * store writes it into room reserved while there was room), and what lets
 * every process know a refused token without sending it again. A new access
 * token is used only once its pair is saved or kept where it outlives the
 * process, and `reauthorization_required` is said only when no pair is held.
 */
export class TokenRefresher {
  private readonly inFlight = new Map<string, Promise<Connection>>();
  private readonly journal: RefreshJournal;
  private readonly keeper: TokenKeeper;
  private readonly writeAhead: RefreshWriteAhead;
  refreshCount = 0;

  constructor(private readonly options: TokenRefresherOptions) {
    const journal = options.store.refreshJournal ?? new MemoryRefreshJournal();
    this.journal = journal;
    const saveDeadlineMs = options.saveDeadlineMs ?? DEFAULT_SAVE_DEADLINE_MS;
    const { store, clock, logger } = options;
    this.keeper = new TokenKeeper({ store, journal, clock, logger, saveDeadlineMs });
    const standsMs = (options.timeoutMs ?? DEFAULT_TOKEN_TIMEOUT_MS) + saveDeadlineMs + CLOCK_MARGIN_MS;
    this.writeAhead = new RefreshWriteAhead(journal, clock, standsMs);
  }

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

  /** Keep-alive: a refresh token ending within `windowMs` is renewed; re-checked under the lock, one worker sends it. */
  refreshAhead(integration: Integration, connection: Connection, windowMs: number): Promise<Connection> {
    const now = this.options.clock.now();
    const due =
      this.canRefresh(integration, connection) && endsWithin(connection, integration, now, windowMs);
    return due
      ? this.singleFlight(integration, connection.id, { aheadMs: windowMs })
      : Promise.resolve(connection);
  }

  /** The refresh-token lifetime this refresher asks for an integration's tokens, in seconds, if one was configured. */
  refreshTokenLifetimeS(integrationId: string): number | undefined {
    return this.options.refreshTokenLifetimes?.[integrationId];
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
    return this.singleFlight(integration, connection.id, definedOnly({ rejectedToken }));
  }

  /** One refresh of `id` at a time in this process, under the store's lock across processes. */
  private singleFlight(integration: Integration, id: string, why: RefreshReason): Promise<Connection> {
    const running = this.inFlight.get(id);
    if (running) return running;
    const { store } = this.options;
    const refresh = () => this.refresh(integration, id, why);
    const locked = store.withConnectionLock ? store.withConnectionLock(id, refresh) : refresh();
    const work = locked.finally(() => {
      this.inFlight.delete(id);
    });
    this.inFlight.set(id, work);
    return work;
  }

  private async refresh(integration: Integration, id: string, why: RefreshReason): Promise<Connection> {
    const { rejectedToken, aheadMs } = why;
    const stored = await this.options.store.get(id);
    if (!stored) {
      throw new AuthError(
        `Connection "${id}" is not in the connection store, so its token cannot be refreshed and saved: store it and invoke by id to get automatic refresh.`,
        { reauthorize: true },
      );
    }
    const recovered = await this.keeper.recover(stored, await this.journal.read(id));
    const current = recovered.connection;
    // Another process or an earlier flight may have refreshed it already.
    const alreadyReplaced = rejectedToken !== undefined && current.secrets.accessToken !== rejectedToken;
    const due =
      aheadMs === undefined
        ? this.needsRefresh(current)
        : endsWithin(current, integration, this.options.clock.now(), aheadMs);
    if (alreadyReplaced || (rejectedToken === undefined && !due)) return current;
    // Tokens that wait in the journal are used while they work; a refresh starts only from a saved pair.
    if (recovered.unsaved) {
      if (rejectedToken === undefined) return current;
      throw notSavedYet(id, undefined, 'journal');
    }
    const refreshToken = current.secrets.refreshToken;
    const clientId = current.fields.clientId;
    if (!refreshToken || !clientId) {
      const missing = refreshToken ? 'OAuth client id (field clientId)' : 'refresh token';
      throw reauthorizationNeeded(
        integration,
        id,
        `Connection "${id}" has no ${missing}, so its token cannot be refreshed.`,
      );
    }
    await this.writeAhead.before(integration, current, recovered.entry);
    return observedRefresh(integration.id, id, () => this.send(integration, current, refreshToken, clientId));
  }

  /** Sends the refresh token; what comes back is kept (`TokenKeeper`), a refusal is recorded. */
  private async send(
    integration: Integration,
    current: Connection,
    refreshToken: string,
    clientId: string,
  ): Promise<Connection> {
    const { clock } = this.options;
    this.refreshCount += 1;
    this.options.logger.info('refreshing token', { connection: current.id });
    let rotated = false;
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
          // A rotated refresh token in an answer we cannot use: kept, its access token marked expired.
          ...definedOnly({ refreshTokenLifetimeS: this.options.refreshTokenLifetimes?.[integration.id] }),
          keepRotatedRefreshToken: async (refreshToken) => {
            rotated = true;
            const now = clock.now();
            await this.keeper.keep(current, { refreshToken, expiresAt: now, issuedAt: now });
          },
          ...definedOnly({ timeoutMs: this.options.timeoutMs }),
        },
        { refreshToken, clientId, ...definedOnly({ clientSecret: current.secrets.clientSecret }) },
      );
    } catch (error) {
      // Once a rotated token is kept or held, the journal says so; nothing more to record.
      if (rotated) throw error;
      return this.failed(integration, current, refreshToken, error);
    }
    return this.keeper.keep(current, { ...tokens, issuedAt: clock.now() });
  }

  /**
   * A refresh that got no tokens. A refused grant is recorded, so the token
   * is not sent again until the connection changes; anything else clears
   * the `sending` entry, as nothing came back that anyone could hold.
   */
  private async failed(
    integration: Integration,
    current: Connection,
    refreshToken: string,
    error: unknown,
  ): Promise<Connection> {
    const id = current.id;
    const at = this.options.clock.now();
    if (!(error instanceof AuthError)) {
      await this.writeAhead.cleared(id);
      await recordRefreshFailure(this.options.store, id, at, error);
      throw error;
    }
    // A store without a cross-process lock: another process may have rotated the pair first.
    const latest = await this.options.store.get(id);
    if (latest && latest.secrets.refreshToken !== refreshToken && !this.needsRefresh(latest)) return latest;
    if (error.providerCode === 'invalid_grant') await this.writeAhead.refused(current);
    else await this.writeAhead.cleared(id);
    await recordRefreshFailure(this.options.store, id, at, error);
    throw reauthorizationNeeded(integration, id, error.message, error.asInit());
  }
}
