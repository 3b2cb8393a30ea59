import { type PendingRevocationSource, pendingStoreOf } from '../connection/retry-pending-revocations.js';
import type { RevocationSchedule } from '../connection/revocation-schedule.js';
import { revokeOnRemoval } from '../connection/revoke-on-removal.js';
import type { Integration } from '../model/define-integration.js';
import type { RevocationReport } from '../model/revocation-report.js';
import type { Runtime } from './runtime.js';

/** What removing a connection needs besides its id: where integrations resolve, and where a failed revocation waits. */
export interface RemoveConnectionOptions {
  /** The integration of an id (a registry's `integration`). */
  integration(id: string): Integration | undefined;
  /**
   * Where a revocation that failed for now is kept and retried from: the
   * runtime's `TenantStores` (every backend has them) or the store itself.
   * Without it, a failed revocation is given up at once.
   */
  pendingRevocations?: PendingRevocationSource | undefined;
  /** Who asked, as the audit record names it. */
  caller?: string | undefined;
  schedule?: RevocationSchedule | undefined;
  /** One deadline per revocation request (default 15 s). */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** What removing a connection did: whether it was there, and what became of its grant at the provider. */
export interface ConnectionRemoval {
  id: string;
  removed: boolean;
  revocation: RevocationReport;
}

/**
 * Removes a connection of the runtime's tenant at once (recorded in the
 * audit trail) and revokes its grant at the provider where the integration
 * declares a way (`connection.revocation`): refresh and access tokens both
 * end. A revocation that fails for a reason that may pass is kept, sealed,
 * as a pending revocation and retried with backoff by later runs
 * (`retryPendingRevocations`); the answer says which (`revocation.state`).
 * An id with no connection answers `removed: false`.
 */
export async function removeConnection(
  runtime: Runtime,
  id: string,
  options: RemoveConnectionOptions,
): Promise<ConnectionRemoval> {
  const connection = await runtime.store.get(id);
  const entry = { action: 'connection.remove' as const, target: id, caller: options.caller };
  if (!connection) {
    return {
      id,
      removed: false,
      revocation: { state: 'not_revocable', reason: 'there was no such connection' },
    };
  }
  const outcome = await revokeOnRemoval(
    options.integration(connection.integration),
    connection,
    runtime.tenant,
    () =>
      runtime.recordWrite({ ...entry, integration: connection.integration }, () => runtime.store.remove(id)),
    {
      store: pendingStoreOf(options.pendingRevocations),
      clock: runtime.clock,
      logger: runtime.logger,
      fetch: runtime.fetch,
      dispatcher: runtime.httpDispatcher,
      schedule: options.schedule,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
    },
  );
  return { id, ...outcome };
}
