import { type AuditQuery, AuditRecord, type AuditTrail, selectRecords } from '../audit/audit-trail.js';

/** One tenant's audit trail in this process's memory: for tests and embedders that keep it themselves. */
export class MemoryAuditTrail implements AuditTrail {
  private readonly records: AuditRecord[] = [];

  async append(record: AuditRecord): Promise<void> {
    this.records.push(AuditRecord.parse(record));
  }

  async read(query?: AuditQuery): Promise<AuditRecord[]> {
    return selectRecords(this.records, query);
  }
}
