import type { RedisCoordinator } from '../../coordination/redis-coordinator.js';
import {
  type AuditQuery,
  AuditRecord,
  type AuditTrail,
  DEFAULT_AUDIT_READ_LIMIT,
  selectRecords,
} from './audit-trail.js';

/** How many records a tenant's stream keeps, about (MAXLEN ~): the oldest go first. */
export const DEFAULT_AUDIT_STREAM_LENGTH = 100_000;

/**
 * One tenant's audit trail as a capped Redis stream, `<tenant prefix>:audit:trail`:
 * XADD with `MAXLEN ~` trims the oldest records in whole nodes, so the
 * stream stays near its cap without a trim on every append. Stream ids are
 * Redis's own; `since` compares each record's time.
 */
export class RedisAuditTrail implements AuditTrail {
  readonly key: string;

  constructor(
    private readonly coordinator: RedisCoordinator,
    private readonly maxLength: number = DEFAULT_AUDIT_STREAM_LENGTH,
  ) {
    this.key = coordinator.key('audit', 'trail');
  }

  async append(record: AuditRecord): Promise<void> {
    const json = JSON.stringify(AuditRecord.parse(record));
    await this.coordinator.client.call('XADD', this.key, 'MAXLEN', '~', this.maxLength, '*', 'r', json);
  }

  async read(query: AuditQuery = {}): Promise<AuditRecord[]> {
    const limit = query.limit ?? DEFAULT_AUDIT_READ_LIMIT;
    // Newest first with a count, then turned around. `since` is read from each record's own
    // time, as every backend does, not from the stream id (Redis's clock, not the runtime's).
    const entries = (await this.coordinator.client.call('XREVRANGE', this.key, '+', '-', 'COUNT', limit)) as [
      string,
      string[],
    ][];
    const records: AuditRecord[] = [];
    for (const [, fields] of entries.reverse()) {
      const parsed = AuditRecord.safeParse(parseField(fields));
      if (parsed.success) records.push(parsed.data);
    }
    return selectRecords(records, query);
  }
}

function parseField(fields: string[]): unknown {
  const index = fields.indexOf('r');
  try {
    return index >= 0 ? JSON.parse(fields[index + 1] ?? '') : undefined;
  } catch {
    return undefined;
  }
}
