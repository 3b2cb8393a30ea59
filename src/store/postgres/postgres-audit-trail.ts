import type { TenantId } from '../../tenants/tenant-id.js';
import {
  type AuditQuery,
  AuditRecord,
  type AuditTrail,
  DEFAULT_AUDIT_READ_LIMIT,
} from '../audit/audit-trail.js';
import { SCHEMA } from './migrations/migration.js';
import type { TenantSessions } from './tenant-sessions.js';

/**
 * One tenant's audit trail in `toolsteps.audit_events` (migration 2):
 * inserted, never updated, ordered by `seq`, read through the (tenant, at)
 * index; each statement runs as the tenant, so row-level security hides
 * every other tenant's records whatever the query says.
 */
export class PostgresAuditTrail implements AuditTrail {
  constructor(
    private readonly sessions: TenantSessions,
    private readonly tenant: TenantId,
  ) {}

  async append(record: AuditRecord): Promise<void> {
    const checked = AuditRecord.parse(record);
    await this.sessions.inTenant(this.tenant, (client) =>
      client.query(`INSERT INTO ${SCHEMA}.audit_events (tenant, at, record) VALUES ($1, $2, $3)`, [
        this.tenant,
        checked.at,
        JSON.stringify(checked),
      ]),
    );
  }

  async read(query: AuditQuery = {}): Promise<AuditRecord[]> {
    const since = new Date(query.since ?? 0).toISOString();
    const limit = query.limit ?? DEFAULT_AUDIT_READ_LIMIT;
    const rows = await this.sessions.inTenant(this.tenant, async (client) => {
      const { rows } = await client.query<{ record: unknown }>(
        `SELECT record FROM ${SCHEMA}.audit_events WHERE tenant = $1 AND at >= $2 ORDER BY seq DESC LIMIT $3`,
        [this.tenant, since, limit],
      );
      return rows;
    });
    return rows.reverse().flatMap(({ record }) => {
      const parsed = AuditRecord.safeParse(record);
      return parsed.success ? [parsed.data] : [];
    });
  }
}
