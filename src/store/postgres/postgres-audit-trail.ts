import type { TenantId } from '../../model/tenant-id.js';
import type { PgClient } from '../../peers/pg-client.js';
import type { AuditHead, AuditSeal } from '../audit/audit-chain.js';
import { type AuditQuery, type AuditReading, AuditRecord, type AuditTrail } from '../audit/audit-trail.js';
import { readChainWindow } from '../audit/chain-window.js';
import { SCHEMA } from './migrations/migration.js';
import type { TenantSessions } from './tenant-sessions.js';

/**
 * Where the chain's head is kept: a row of the trail itself at `-infinity`,
 * which no read of records reaches (they ask for `at >= since`, since the
 * epoch at the earliest), so the head needs no table of its own.
 */
const HEAD_AT = '-infinity';

/**
 * One tenant's audit trail in `toolsteps.audit_events` (migration 2):
 * inserted, never updated, ordered by `seq`; each statement runs as the
 * tenant, so row-level security hides every other tenant's records. Each
 * record is sealed into a chain (`AuditSeal`) and the last link is kept,
 * MACed, as the head row: a role that can write the table but holds no
 * TOOLSTEPS_ENCRYPTION_KEY can delete the trail, but what it alters,
 * forges, deletes from it or cuts from its end is reported by `verify`.
 */
export class PostgresAuditTrail implements AuditTrail {
  /** The highest position this process appended: a trail that ends below it was cut. */
  private floor = 0;

  constructor(
    private readonly sessions: TenantSessions,
    private readonly tenant: TenantId,
    private readonly seal: AuditSeal,
  ) {}

  async append(record: AuditRecord): Promise<void> {
    const checked = AuditRecord.parse(record);
    const n = await this.sessions.inTenant(this.tenant, async (client) => {
      // One appender per tenant at a time, until this transaction ends: the chain never forks.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`toolsteps-audit:${this.tenant}`]);
      const stored = await this.head(client);
      const envelope = this.seal.seal(checked, stored);
      await client.query(`INSERT INTO ${SCHEMA}.audit_events (tenant, at, record) VALUES ($1, $2, $3)`, [
        this.tenant,
        checked.at,
        JSON.stringify(envelope),
      ]);
      const head = JSON.stringify(this.seal.head(envelope));
      const updated = await client.query(
        `UPDATE ${SCHEMA}.audit_events SET record = $2 WHERE tenant = $1 AND at = '${HEAD_AT}'`,
        [this.tenant, head],
      );
      if (!updated.rowCount) {
        await client.query(
          `INSERT INTO ${SCHEMA}.audit_events (tenant, at, record) VALUES ($1, '${HEAD_AT}', $2)`,
          [this.tenant, head],
        );
      }
      return envelope.n;
    });
    this.floor = Math.max(this.floor, n);
  }

  private async head(client: PgClient): Promise<AuditHead | undefined> {
    const { rows } = await client.query<{ record: AuditHead }>(
      `SELECT record FROM ${SCHEMA}.audit_events WHERE tenant = $1 AND at = '${HEAD_AT}' ORDER BY seq DESC LIMIT 1`,
      [this.tenant],
    );
    return rows[0]?.record;
  }

  async read(query: AuditQuery = {}): Promise<AuditRecord[]> {
    return (await this.verify(query)).records;
  }

  async verify(query: AuditQuery = {}): Promise<AuditReading> {
    return readChainWindow(this.seal, this.floor, query, (count) =>
      this.sessions.inTenant(this.tenant, async (client) => {
        const { rows } = await client.query<{ record: unknown }>(
          `SELECT record FROM ${SCHEMA}.audit_events WHERE tenant = $1 AND at > '${HEAD_AT}' ORDER BY seq DESC LIMIT $2`,
          [this.tenant, count],
        );
        // No cap trims this table: a chain read from its start must begin at 1.
        return {
          newestFirst: rows.map((row) => row.record),
          head: await this.head(client),
          startsAtOne: true,
        };
      }),
    );
  }
}
