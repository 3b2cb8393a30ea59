import { createHash } from 'node:crypto';
import * as z from 'zod';

/**
 * Tokens a refresh obtained that are not saved on the connection yet: put
 * over its secrets when they are (absent fields keep the stored ones).
 */
export const UnsavedTokens = z
  .object({
    accessToken: z.string().min(1).optional(),
    refreshToken: z.string().min(1).optional(),
    expiresAt: z.number().int().optional(),
    /** When the new refresh token ends, when the provider said. */
    refreshExpiresAt: z.number().int().optional(),
    scopes: z.array(z.string()).optional(),
    /** When the provider issued them: the connection's `updatedAt` once saved. */
    issuedAt: z.number().int(),
  })
  .strict();
export type UnsavedTokens = z.infer<typeof UnsavedTokens>;

/**
 * What a connection's refresh wrote ahead. `spent` is the mark of a refresh
 * token (`spentMark`), never the token:
 * - `sending`: a process (`holder`, on `host` as `pid`) is about to send it
 *   or has; until `until`, no one else sends it, since it may be spent;
 * - `issued`: the provider answered it with `tokens`, which the connection
 *   could not save yet (only where the journal outlives the process);
 * - `refused`: the provider refused it (invalid_grant) while the connection
 *   was as of `updatedAt`: it is not sent again until the connection changes.
 */
export const RefreshEntry = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('sending'),
    spent: z.string(),
    holder: z.string(),
    host: z.string(),
    pid: z.number().int(),
    at: z.number(),
    until: z.number(),
  }),
  z.object({ state: z.literal('issued'), spent: z.string(), at: z.number(), tokens: UnsavedTokens }),
  z.object({ state: z.literal('refused'), spent: z.string(), at: z.number(), updatedAt: z.number() }),
]);
export type RefreshEntry = z.infer<typeof RefreshEntry>;

/** A stored entry as text, or none: one that does not parse (a hand edit) counts as none, since nothing in it can be trusted. */
export function parseRefreshEntry(text: string | null | undefined): RefreshEntry | undefined {
  if (!text) return undefined;
  try {
    const parsed = RefreshEntry.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** A refusal is remembered this long; after it, the refused token may be tried once more. */
const REFUSED_TTL_MS = 30 * 24 * 60 * 60_000;
/** A `sending` entry outlives its `until` by this much, so a late reader still sees whose it was. */
const SENDING_GRACE_MS = 60_000;

/**
 * An entry checked for a journal that is not sealed (Redis, Postgres), with
 * how long it is kept: such a journal holds marks and times, never a token,
 * so an `issued` entry is refused.
 */
export function unsealedEntry(entry: RefreshEntry, journal: string): { valid: RefreshEntry; ttlMs: number } {
  const valid = RefreshEntry.parse(entry);
  if (valid.state === 'issued') throw new Error(`The ${journal} refresh journal never holds tokens.`);
  const ttlMs =
    valid.state === 'sending' ? Math.max(0, valid.until - valid.at) + SENDING_GRACE_MS : REFUSED_TTL_MS;
  return { valid, ttlMs: Math.ceil(ttlMs) };
}

/**
 * One entry per connection, written ahead of the token endpoint so that
 * what a refresh spent, got or was refused is known to the next caller, in
 * this process or another. Read and written under the connection's lock.
 */
export interface RefreshJournal {
  /**
   * Whether an `issued` entry written here outlives this process and can be
   * written when the connection cannot (the file store's, written in place
   * into room it reserved). When false, `issued` entries are never written:
   * the Redis store's journal is not sealed, so it never holds a token.
   */
  readonly keepsTokens: boolean;
  read(id: string): Promise<RefreshEntry | undefined>;
  write(id: string, entry: RefreshEntry): Promise<void>;
  clear(id: string): Promise<void>;
}

/** The mark of a refresh token in the journal: enough to recognise it, useless to send. */
export function spentMark(refreshToken: string): string {
  return createHash('sha256').update(`toolsteps-refresh:${refreshToken}`).digest('hex').slice(0, 32);
}

/** The journal of a store that lives in this process (the memory store, or a store that brings none). */
export class MemoryRefreshJournal implements RefreshJournal {
  readonly keepsTokens = false;
  private readonly entries = new Map<string, RefreshEntry>();

  async read(id: string): Promise<RefreshEntry | undefined> {
    return this.entries.get(id);
  }

  async write(id: string, entry: RefreshEntry): Promise<void> {
    this.entries.set(id, RefreshEntry.parse(entry));
  }

  async clear(id: string): Promise<void> {
    this.entries.delete(id);
  }
}
