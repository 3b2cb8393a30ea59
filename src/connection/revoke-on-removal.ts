import type { Connection } from '../model/connection.js';
import type { Integration } from '../model/define-integration.js';
import { newPendingRevocationId, type PendingRevocation } from '../model/pending-revocation.js';
import type { RevocationReport } from '../model/revocation-report.js';
import { REVOCATION_CLAIM_MS } from './revocation-schedule.js';
import { notRevocable } from './revoke-grant.js';
import { type SettleOptions, settleRevocation } from './settle-revocation.js';

/**
 * Removes a connection and revokes its grant at the provider. The
 * revocation is written ahead (a pending revocation, sealed as the store
 * seals connections, claimed by this run) before the connection is removed,
 * so a process killed in between leaves it for the next run rather than
 * losing it; then `remove` runs (the user asked for it: it does not wait
 * for the provider); then the revocation is sent. A connection whose grant
 * cannot be revoked (an API key) is only removed. Answers whether the
 * connection was there, and what became of its grant.
 */
export async function revokeOnRemoval(
  integration: Integration | undefined,
  connection: Connection,
  tenant: string,
  remove: () => Promise<boolean>,
  options: SettleOptions,
): Promise<{ removed: boolean; revocation: RevocationReport }> {
  const reason = integration
    ? notRevocable(integration, connection)
    : `the integration "${connection.integration}" is not registered here, so its revocation is unknown`;
  if (reason !== undefined || !integration) {
    return { removed: await remove(), revocation: { state: 'not_revocable', reason: reason ?? '' } };
  }
  const now = options.clock.now();
  const pending: PendingRevocation = {
    id: newPendingRevocationId(),
    tenant,
    connection,
    attempts: 0,
    nextAttemptAt: now + REVOCATION_CLAIM_MS,
    createdAt: now,
  };
  let store = options.store;
  // A store that cannot keep it: the revocation is still sent now, and given up if that fails.
  await store?.put(pending).catch((error: unknown) => {
    store = undefined;
    options.logger?.warn('could not write a revocation ahead', {
      connection: connection.id,
      error: (error as Error)?.name,
    });
  });
  let removed: boolean;
  try {
    removed = await remove();
  } catch (error) {
    // The connection stays, so its grant must too: no later run may revoke it.
    await store?.remove(pending.id).catch(() => undefined);
    throw error;
  }
  return { removed, revocation: await settleRevocation(integration, pending, { ...options, store }) };
}
