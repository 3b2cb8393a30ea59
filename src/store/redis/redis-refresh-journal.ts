import {
  parseRefreshEntry,
  type RefreshEntry,
  type RefreshJournal,
  unsealedEntry,
} from '../refresh-journal.js';
import type { RedisHandle } from './redis-handle.js';

/**
 * The Redis store's refresh journal: one key per connection
 * (`<prefix>:conn-refresh:<id>`, JSON, expiring). It holds marks of refresh
 * tokens and times, never a token: it is not sealed, and whoever reads
 * Redis must learn nothing from it. So it never keeps an issued pair; the
 * refresher keeps that in memory while it retries the save.
 */
export class RedisRefreshJournal implements RefreshJournal {
  readonly keepsTokens = false;

  constructor(private readonly coordinator: RedisHandle) {}

  private keyOf(id: string): string {
    return this.coordinator.key('conn-refresh', id);
  }

  async read(id: string): Promise<RefreshEntry | undefined> {
    return parseRefreshEntry(await this.coordinator.client.get(this.keyOf(id)));
  }

  async write(id: string, entry: RefreshEntry): Promise<void> {
    const { valid, ttlMs } = unsealedEntry(entry, 'Redis');
    await this.coordinator.client.set(this.keyOf(id), JSON.stringify(valid), 'PX', ttlMs);
  }

  async clear(id: string): Promise<void> {
    await this.coordinator.client.del(this.keyOf(id));
  }
}
