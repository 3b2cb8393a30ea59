import { DEFAULT_TENANT, type TenantId } from '../../model/tenant-id.js';
import { isRecordId, noRecordWithId } from '../record-id.js';
import type { RecordStore } from '../record-store.js';
import type { SecretBox } from '../sealed/secret-box.js';
import {
  EncryptedRecords,
  type KeySource,
  type RecordShape,
  type RekeyCounts,
  type RekeyOptions,
} from './encrypted-records.js';
import type { RedisHandle } from './redis-handle.js';

/**
 * Records shared by every worker, in Redis (`EncryptedRecords`), checked as
 * the local stores check them before every write. `update` is a
 * compare-and-set, so two workers never overwrite each other's change.
 */
export class RedisRecordStore<T extends { id: string }> implements RecordStore<T> {
  protected readonly records: EncryptedRecords<T>;

  constructor(
    coordinator: RedisHandle,
    keys: SecretBox | KeySource,
    private readonly shape: RecordShape<T>,
    private readonly check: (record: T) => T,
    tenant: TenantId = DEFAULT_TENANT,
  ) {
    this.records = new EncryptedRecords(coordinator, keys, shape, tenant);
  }

  /** An id no record can have is one nobody holds (`isRecordId`): answered so without naming a key. */
  async get(id: string): Promise<T | undefined> {
    if (!isRecordId(id, this.shape)) return undefined;
    return this.records.get(id);
  }

  list(): Promise<T[]> {
    return this.records.list();
  }

  async put(record: T): Promise<void> {
    const valid = this.check(record);
    await this.records.put(valid.id, valid);
  }

  async update(id: string, change: (current: T) => T): Promise<T> {
    if (!isRecordId(id, this.shape)) throw noRecordWithId(id, this.shape);
    return this.records.update(id, (current) => this.check(change(current)));
  }

  async remove(id: string): Promise<boolean> {
    if (!isRecordId(id, this.shape)) return false;
    return this.records.remove(id);
  }

  /** Seals every record with the current key (after rotating `TOOLSTEPS_ENCRYPTION_KEY`). */
  rekey(options: RekeyOptions = {}): Promise<RekeyCounts> {
    return this.records.rekey(options);
  }
}
