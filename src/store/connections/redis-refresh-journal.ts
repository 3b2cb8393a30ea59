import type { RedisCoordinator } from '../../coordination/redis-coordinator.js';
import { parseRefreshEntry, RefreshEntry, type RefreshJournal } from './refresh-journal.js';

/** A refusal is remembered this long; after it, the refused token may be tried once more. */
const REFUSED_TTL_MS = 30 * 24 * 60 * 60_000;
/** A `sending` entry outlives its `until` by this much, so a late reader still sees whose it was. */
const SENDING_GRACE_MS = 60_000;

/**
 * The Redis store's refresh journal: one key per connection
 * (`<prefix>:conn-refresh:<id>`, JSON, expiring). It holds marks of refresh
 * tokens and times, never a token: it is not sealed, and whoever reads
 * Redis must learn nothing from it. So it never keeps an issued pair; the
 * refresher keeps that in memory while it retries the save.
 */
export class RedisRefreshJournal implements RefreshJournal {
  readonly keepsTokens = false;

  constructor(private readonly coordinator: RedisCoordinator) {}

  private keyOf(id: string): string {
    return this.coordinator.key('conn-refresh', id);
  }

  async read(id: string): Promise<RefreshEntry | undefined> {
    return parseRefreshEntry(await this.coordinator.client.get(this.keyOf(id)));
  }

  async write(id: string, entry: RefreshEntry): Promise<void> {
    const valid = RefreshEntry.parse(entry);
    if (valid.state === 'issued') throw new Error('The Redis refresh journal never holds tokens.');
    const ttlMs =
      valid.state === 'sending' ? Math.max(0, valid.until - valid.at) + SENDING_GRACE_MS : REFUSED_TTL_MS;
    await this.coordinator.client.set(this.keyOf(id), JSON.stringify(valid), 'PX', Math.ceil(ttlMs));
  }

  async clear(id: string): Promise<void> {
    await this.coordinator.client.del(this.keyOf(id));
  }
}
