/**
 * Records kept by their id: connections, subscriptions. Every store of them
 * (in memory, in files, in Redis) answers the same five calls; `update` is
 * atomic per id, so a read, change and write of one record is never
 * interleaved with another change of it.
 */
export interface RecordStore<T extends { id: string }> {
  get(id: string): Promise<T | undefined>;
  list(): Promise<T[]>;
  put(record: T): Promise<void>;
  /** Applies `change` to the stored record and saves the result before resolving. */
  update(id: string, change: (current: T) => T): Promise<T>;
  remove(id: string): Promise<boolean>;
}
