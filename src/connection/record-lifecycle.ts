import { AuthError } from '../errors/index.js';
import type { Connection } from '../model/connection.js';
import type { ConnectionStore } from '../store/connection-store.js';

/** What a lifecycle record may change on a stored connection: never its secrets, fields or `updatedAt`. */
export type LifecycleChange = Partial<Pick<Connection, 'lastRefresh' | 'health' | 'lastUsedAt'>>;

/**
 * Writes how a connection stands onto the stored connection, leaving
 * `updatedAt` alone: it measures the credentials' age (when a refresh is due)
 * and names the connection a refused refresh token was refused for. Best
 * effort: a store that cannot write now loses a record, never a token, so
 * the failure is returned as undefined rather than thrown.
 */
export async function recordLifecycle(
  store: ConnectionStore,
  id: string,
  change: LifecycleChange,
): Promise<Connection | undefined> {
  try {
    return await store.update(id, (stored) => ({ ...stored, ...change }));
  } catch {
    return undefined;
  }
}

/**
 * Records a refresh that got no tokens: a refusal (an AuthError) means the
 * grant is gone, so the connection `needs_reconnect`; anything else is a
 * `failed` refresh, to be tried again, which says nothing about the grant.
 */
export async function recordRefreshFailure(
  store: ConnectionStore,
  id: string,
  at: number,
  error: unknown,
): Promise<void> {
  if (!(error instanceof AuthError)) {
    const reason = (error as { code?: string }).code ?? 'failed';
    await recordLifecycle(store, id, { lastRefresh: { at, outcome: 'failed', reason } });
    return;
  }
  await recordLifecycle(store, id, {
    lastRefresh: { at, outcome: 'refused', reason: error.providerCode ?? error.code },
    health: { state: 'needs_reconnect', checkedAt: at, reason: 'the provider refused the refresh token' },
  });
}
