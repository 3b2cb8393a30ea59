import type { Connection } from '../model/connection.js';
import type { ConnectionStore } from '../store/connection-store.js';
import { recordLifecycle } from './record-lifecycle.js';

/** A connection's last use is written at most this often: a busy connection is not rewritten on every call. */
export const USE_RECORD_INTERVAL_MS = 60 * 60_000;

/**
 * Records that a call worked with `connection` (its `lastUsedAt`), when the
 * last record is older than `USE_RECORD_INTERVAL_MS`. Best effort, like
 * every lifecycle record: a store that cannot write now fails nothing.
 */
export async function noteUse(store: ConnectionStore, connection: Connection, now: number): Promise<void> {
  if (connection.lastUsedAt !== undefined && now - connection.lastUsedAt < USE_RECORD_INTERVAL_MS) return;
  await recordLifecycle(store, connection.id, { lastUsedAt: now });
}
