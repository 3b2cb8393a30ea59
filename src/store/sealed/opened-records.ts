import { copyRecord } from '../../values/copy-record.js';
import type { SealedRecord, SealedRecords } from './sealed-records.js';
import type { SecretBox } from './secret-box.js';

/** How many records stay opened; past it all are forgotten, as a process serving many tenants would otherwise grow without bound. */
const KEPT_LIMIT = 1000;

function sameSeal(a: SealedRecord, b: SealedRecord): boolean {
  return (
    a.sealed === b.sealed &&
    a.publicJson === b.publicJson &&
    a.version === b.version &&
    a.kid === b.kid &&
    a.format === b.format
  );
}

/**
 * The records a shared store (Redis, Postgres) opened last, by id, whether
 * a lookup, a list or an update read them: the same stored bytes opened with
 * the same box open to the same record, so a read that finds them again
 * skips the AES-GCM open and the schema check (most of a lookup's CPU, and
 * of the intake's read of a subscription per event) and hands out a copy.
 * Anything stored differently (a write, a rekey, tampering) or a different
 * box (a data key re-made, a tenant erased) opens afresh; the version floor
 * is checked on every read either way (`SealedRecords.reopen`).
 */
export class OpenedRecords<T> {
  private readonly kept = new Map<string, { stored: SealedRecord; box: SecretBox; record: T }>();

  constructor(
    private readonly sealing: SealedRecords,
    private readonly box: () => SecretBox | undefined,
    private readonly join: (publicPart: Record<string, unknown>, secrets: Record<string, unknown>) => T,
  ) {}

  open(id: string, stored: SealedRecord, floor: number): T {
    const box = this.box();
    const kept = this.kept.get(id);
    if (kept && box && kept.box === box && sameSeal(kept.stored, stored)) {
      this.sealing.reopen(id, stored, floor);
      return copyRecord(kept.record);
    }
    this.kept.delete(id);
    const { publicPart, secrets } = this.sealing.open(id, stored, floor);
    const record = this.join(publicPart, secrets);
    if (box) {
      if (this.kept.size >= KEPT_LIMIT) this.kept.clear();
      this.kept.set(id, { stored: { ...stored }, box, record: copyRecord(record) });
    }
    return record;
  }
}
