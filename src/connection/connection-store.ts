import type { Connection } from './connection.js';

/**
 * Where connections live. Implementations must make `update` atomic per id
 * within a process: a token refresh reads, rotates and writes in one step.
 */
export interface ConnectionStore {
  get(id: string): Promise<Connection | undefined>;
  list(): Promise<Connection[]>;
  put(connection: Connection): Promise<void>;
  /** Applies `change` to the stored connection and saves the result before resolving. */
  update(id: string, change: (current: Connection) => Connection): Promise<Connection>;
  remove(id: string): Promise<boolean>;
}
