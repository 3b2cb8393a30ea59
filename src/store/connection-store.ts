import type { Connection } from '../model/connection.js';
import type { RecordStore } from './record-store.js';
import type { RefreshJournal } from './refresh-journal.js';

/**
 * Where connections live. Implementations must make `update` atomic per id
 * within a process: a token refresh reads, rotates and writes in one step.
 */
export interface ConnectionStore extends RecordStore<Connection> {
  /**
   * Runs `work` holding this connection's lock across processes, when the
   * store can (the file store). Token refresh runs its read, its call to the
   * token endpoint and its write inside it, so two processes never spend one
   * rotating refresh token. Calls to the store from inside `work` must not wait for it.
   */
  withConnectionLock?<T>(id: string, work: () => Promise<T>): Promise<T>;
  /**
   * Where a token refresh writes ahead what it sends, gets and is refused,
   * shared by everyone using the store (`RefreshJournal`). A store without
   * one gets a journal in the refresher's memory, which only that process sees.
   */
  readonly refreshJournal?: RefreshJournal;
}
