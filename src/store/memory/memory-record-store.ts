import { copyRecord } from '../../values/copy-record.js';
import { KeyedMutex } from '../../values/keyed-mutex.js';
import { LockedRecordStore, type RecordKind } from '../locked-record-store.js';

/**
 * Records in a map, for tests and embedders that persist them themselves.
 * What goes in and what comes out are copies, so a caller that edits a
 * record it holds never changes the stored one behind the store's lock.
 */
export class MemoryRecordStore<T extends { id: string }> extends LockedRecordStore<T> {
  protected readonly items = new Map<string, T>();
  private readonly mutex = new KeyedMutex();

  constructor(kind: RecordKind<T>, initial: T[] = []) {
    super(kind);
    for (const record of initial) this.items.set(record.id, copyRecord(record));
  }

  async get(id: string): Promise<T | undefined> {
    const found = this.items.get(id);
    return found ? copyRecord(found) : undefined;
  }

  async list(): Promise<T[]> {
    return [...this.items.values()].map((item) => copyRecord(item));
  }

  protected async write(record: T): Promise<void> {
    this.items.set(record.id, copyRecord(record));
  }

  protected async delete(id: string): Promise<boolean> {
    return this.items.delete(id);
  }

  protected lock<R>(id: string, work: () => Promise<R>): Promise<R> {
    return this.mutex.run(id, work);
  }
}
