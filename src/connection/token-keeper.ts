import { NotFoundError } from '../errors/index.js';
import type { Clock } from '../model/clock.js';
import type { Connection } from '../model/connection.js';
import type { Logger } from '../model/logger.js';
import type { ConnectionStore } from '../store/connection-store.js';
import {
  type RefreshEntry,
  type RefreshJournal,
  spentMark,
  type UnsavedTokens,
} from '../store/refresh-journal.js';
import { definedOnly } from '../values/defined-only.js';
import { notSavedYet } from './refresh-errors.js';

/** The first pause between two tries to save, doubled up to the longest. */
const FIRST_PAUSE_MS = 250;
const LONGEST_PAUSE_MS = 5_000;

export interface TokenKeeperOptions {
  store: ConnectionStore;
  journal: RefreshJournal;
  clock: Clock;
  logger: Logger;
  /** How long the refresh that got new tokens keeps trying to save them before it fails (retryably). */
  saveDeadlineMs: number;
}

/**
 * The connection with tokens put over its secrets, as of when they were
 * issued: a new refresh token brings its own end (unknown when the provider
 * did not say), and the refresh is recorded as the connection's last.
 */
export function withTokens(stored: Connection, tokens: UnsavedTokens): Connection {
  const { refreshExpiresAt: _previousEnd, ...rest } = stored;
  const refreshExpiresAt = tokens.refreshToken ? tokens.refreshExpiresAt : stored.refreshExpiresAt;
  return {
    ...rest,
    ...definedOnly({ refreshExpiresAt }),
    lastRefresh: { at: tokens.issuedAt, outcome: 'refreshed' },
    health: { state: 'healthy', checkedAt: tokens.issuedAt, reason: 'refreshed' },
    secrets: {
      ...stored.secrets,
      ...definedOnly({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken }),
    },
    ...definedOnly({ expiresAt: tokens.expiresAt, scopes: tokens.scopes }),
    updatedAt: tokens.issuedAt,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Keeps the tokens a refresh got until the connection holds them. The
 * provider spent the old refresh token when it answered, so the new pair is
 * the only grant left: it is never dropped because a save failed. It is
 * saved at once when it can be; otherwise written to the store's journal
 * when that outlives the process (the file store's, in room reserved before
 * the refresh was sent), else held in memory while the save is retried with
 * backoff until a deadline, and after it, retried by every later call.
 */
export class TokenKeeper {
  private readonly pending = new Map<string, { spent: string; tokens: UnsavedTokens }>();

  constructor(private readonly options: TokenKeeperOptions) {}

  /**
   * Saves `tokens`, issued for the refresh token `current` holds, or keeps
   * them. Returns the connection with them when they are saved or kept
   * where they outlive this process; else fails retryably, still holding them.
   */
  async keep(current: Connection, tokens: UnsavedTokens): Promise<Connection> {
    const { journal, clock, logger, saveDeadlineMs } = this.options;
    const spentToken = current.secrets.refreshToken as string;
    const first = await this.save(current.id, tokens, spentToken);
    if ('saved' in first) return first.saved;
    const spent = spentMark(spentToken);
    if (journal.keepsTokens) {
      const issued: RefreshEntry = { state: 'issued', spent, at: clock.now(), tokens };
      const written = await journal.write(current.id, issued).then(
        () => true,
        () => false,
      );
      if (written) {
        logger.warn('new tokens kept in the refresh journal until the connection can be saved', {
          connection: current.id,
        });
        return withTokens(current, tokens);
      }
    }
    // Real time: the store comes back on the wall clock, whatever clock the runtime reads.
    const deadline = Date.now() + saveDeadlineMs;
    let failure = first.error;
    for (let pause = FIRST_PAUSE_MS; Date.now() < deadline; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
      await sleep(Math.min(pause, Math.max(0, deadline - Date.now())));
      const next = await this.save(current.id, tokens, spentToken);
      if ('saved' in next) return next.saved;
      failure = next.error;
    }
    this.pending.set(current.id, { spent, tokens });
    logger.warn('new tokens held in memory: the connection store could not save them', {
      connection: current.id,
    });
    throw notSavedYet(current.id, failure, 'process');
  }

  /**
   * Finishes an earlier refresh of `stored`: tokens this process holds, or
   * an `issued` journal entry, for the refresh token `stored` still has.
   * Returns `stored` as it is when there are none; the connection with them
   * once saved; or, when they cannot be saved yet but wait in a journal that
   * outlives this process, the connection with them unsaved (`unsaved`) as
   * long as their access token works. Throws retryably otherwise: a refresh
   * is never made from tokens that are not kept.
   */
  async recover(
    stored: Connection,
    entry: RefreshEntry | undefined,
  ): Promise<{ connection: Connection; entry: RefreshEntry | undefined; unsaved?: true }> {
    const token = stored.secrets.refreshToken;
    const spent = token === undefined ? undefined : spentMark(token);
    const held = this.pending.get(stored.id);
    const fromJournal = entry?.state === 'issued' && entry.spent === spent ? entry.tokens : undefined;
    const tokens = held !== undefined && held.spent === spent ? held.tokens : fromJournal;
    if (token === undefined || tokens === undefined) {
      // Held for a refresh token the connection no longer has: a newer grant was saved since.
      if (held) this.pending.delete(stored.id);
      return { connection: stored, entry };
    }
    const result = await this.save(stored.id, tokens, token);
    if ('saved' in result) return { connection: result.saved, entry: undefined };
    const unsaved = withTokens(stored, tokens);
    if (tokens === fromJournal && (unsaved.expiresAt ?? Infinity) > this.options.clock.now()) {
      return { connection: unsaved, entry, unsaved: true };
    }
    throw notSavedYet(stored.id, result.error, tokens === fromJournal ? 'journal' : 'process');
  }

  /**
   * One compare-and-set on the refresh token that was spent: a stored
   * connection that no longer holds it has a newer grant (another worker
   * refreshed while our lock had lapsed, or it was reconnected), which is
   * kept, never overwritten with ours. A connection removed meanwhile fails:
   * there is nothing left to keep the tokens for.
   */
  private async save(
    id: string,
    tokens: UnsavedTokens,
    spentToken: string,
  ): Promise<{ saved: Connection } | { error: unknown }> {
    let saved: Connection;
    try {
      saved = await this.options.store.update(id, (stored) =>
        stored.secrets.refreshToken === spentToken ? withTokens(stored, tokens) : stored,
      );
    } catch (error) {
      if (error instanceof NotFoundError) throw error;
      return { error };
    }
    this.pending.delete(id);
    // A journal entry left behind names a refresh token the connection no longer has: it is ignored.
    await this.options.journal.clear(id).catch(() => undefined);
    return { saved };
  }
}
