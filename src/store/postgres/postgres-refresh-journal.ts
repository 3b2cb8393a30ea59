import type { TenantId } from '../../model/tenant-id.js';
import {
  parseRefreshEntry,
  type RefreshEntry,
  type RefreshJournal,
  unsealedEntry,
} from '../refresh-journal.js';
import { SCHEMA } from './migrations/migration.js';
import type { TenantSessions } from './tenant-sessions.js';

const TABLE = `${SCHEMA}.connection_refresh`;

/**
 * One tenant's refresh journal in Postgres: a row per connection, JSON text
 * with an expiry, read as none once past it. Like the Redis journal it is
 * not sealed, so it holds marks of refresh tokens and times, never a token
 * (`keepsTokens` false: the refresher keeps an issued pair in memory while
 * it retries the save).
 */
export class PostgresRefreshJournal implements RefreshJournal {
  readonly keepsTokens = false;

  constructor(
    private readonly sessions: TenantSessions,
    private readonly tenant: TenantId,
  ) {}

  async read(id: string): Promise<RefreshEntry | undefined> {
    const { rows } = await this.sessions.inTenant(this.tenant, (client) =>
      client.query<{ entry: string }>(
        `SELECT entry FROM ${TABLE} WHERE tenant = $1 AND id = $2 AND expires_at > now()`,
        [this.tenant, id],
      ),
    );
    return parseRefreshEntry(rows[0]?.entry);
  }

  async write(id: string, entry: RefreshEntry): Promise<void> {
    const { valid, ttlMs } = unsealedEntry(entry, 'Postgres');
    await this.sessions.inTenant(this.tenant, (client) =>
      client.query(
        `INSERT INTO ${TABLE} (tenant, id, entry, expires_at)
         VALUES ($1, $2, $3, now() + make_interval(secs => $4::double precision / 1000))
         ON CONFLICT (tenant, id) DO UPDATE SET entry = EXCLUDED.entry, expires_at = EXCLUDED.expires_at`,
        [this.tenant, id, JSON.stringify(valid), ttlMs],
      ),
    );
  }

  async clear(id: string): Promise<void> {
    await this.sessions.inTenant(this.tenant, (client) =>
      client.query(`DELETE FROM ${TABLE} WHERE tenant = $1 AND id = $2`, [this.tenant, id]),
    );
  }
}
