import type { Connection } from '../../model/connection.js';
import type { ConnectionStore } from '../connection-store.js';
import { MemoryRefreshJournal } from '../refresh-journal.js';
import { MemoryRecordStore } from './memory-record-store.js';

/** A store for tests and embedders that persist connections themselves. */
export class MemoryConnectionStore extends MemoryRecordStore<Connection> implements ConnectionStore {
  readonly refreshJournal = new MemoryRefreshJournal();

  constructor(initial: Connection[] = []) {
    // Kept as given, unchecked, as this store always has: the embedder owns what it puts here.
    super({ noun: 'connection', check: (connection) => connection }, initial);
  }
}
