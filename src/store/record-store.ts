/**
 * Records kept by their id: connections, subscriptions. Every store of them
 * (in memory, in files, in Redis) answers the same five calls; `update` is
 * atomic per id, so a read, change and write of one record is never
 * interleaved with another change of it.
 */
export interface RecordStore<T extends { id: string }> {
  /** The record, or undefined when there is none: a missing id is a normal answer, not an error. */
  get(id: string): Promise<T | undefined>;
  /** Every record, for listings; stores keep few (connections, subscriptions), so there is no paging. */
  list(): Promise<T[]>;
  /** Stores the record whole, replacing one with its id; use `update` when the change depends on what is stored. */
  put(record: T): Promise<void>;
  /** Applies `change` to the stored record and saves the result before resolving. */
  update(id: string, change: (current: T) => T): Promise<T>;
  /** Deletes the record; resolves false when there was none, so a repeated removal is not an error. */
  remove(id: string): Promise<boolean>;
}
