import { NotFoundError } from '../errors/index.js';
import type { RecordStore } from './record-store.js';

/** What a kind of record is called in messages, and the check it passes before it is stored. */
export interface RecordKind<T> {
  noun: string;
  check(record: T): T;
}

/**
 * The changes a store in this process (memory, files) makes the same way
 * for every kind of record: each runs holding the record's lock, and
 * `update` reads, changes, checks and writes inside it. A store says how to
 * read, write, delete and lock one record.
 */
export abstract class LockedRecordStore<T extends { id: string }> implements RecordStore<T> {
  constructor(private readonly kind: RecordKind<T>) {}

  abstract get(id: string): Promise<T | undefined>;
  abstract list(): Promise<T[]>;
  /** Saves one checked record; called holding its lock. */
  protected abstract write(record: T): Promise<void>;
  /** Deletes one record and says whether it was there; called holding its lock. */
  protected abstract delete(id: string): Promise<boolean>;
  /** Runs `work` holding the record's lock. */
  protected abstract lock<R>(id: string, work: () => Promise<R>): Promise<R>;

  async put(record: T): Promise<void> {
    const valid = this.kind.check(record);
    await this.lock(valid.id, () => this.write(valid));
  }

  async update(id: string, change: (current: T) => T): Promise<T> {
    return this.lock(id, async () => {
      const current = await this.get(id);
      if (!current) throw new NotFoundError(`No ${this.kind.noun} with id "${id}".`);
      const next = this.kind.check(change(current));
      await this.write(next);
      return next;
    });
  }

  async remove(id: string): Promise<boolean> {
    return this.lock(id, () => this.delete(id));
  }
}
