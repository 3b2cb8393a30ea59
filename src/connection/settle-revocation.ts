import type { Clock } from '../model/clock.js';
import type { Integration } from '../model/define-integration.js';
import type { Logger } from '../model/logger.js';
import type { PendingRevocation } from '../model/pending-revocation.js';
import type { RevocationReport } from '../model/revocation-report.js';
import type { RecordStore } from '../store/record-store.js';
import type { RevocationTransport } from './revocation-request.js';
import {
  DEFAULT_REVOCATION_ATTEMPTS,
  type RevocationSchedule,
  revocationDelayMs,
} from './revocation-schedule.js';
import { revokeGrant } from './revoke-grant.js';

/** What a try at a pending revocation needs: the store that keeps it, the transport, the clock and the schedule. */
export interface SettleOptions extends RevocationTransport {
  store: RecordStore<PendingRevocation> | undefined;
  clock: Clock;
  schedule?: RevocationSchedule | undefined;
  logger?: Logger | undefined;
}

/** Forgets a pending revocation that is done or given up; a store that cannot is logged, not thrown: the next run finds it again. */
async function forget(pending: PendingRevocation, options: SettleOptions): Promise<void> {
  await options.store?.remove(pending.id).catch((error: unknown) =>
    options.logger?.warn('could not delete a settled pending revocation', {
      pending: pending.id,
      error: (error as Error)?.name,
    }),
  );
}

/**
 * Sends one pending revocation and keeps the store true to what happened:
 * done (revoked, already ended, nothing to revoke) or given up, the record
 * and its sealed tokens are deleted; failed for a reason that may pass, the
 * record counts the try, keeps any tokens renewed on the way, and waits out
 * the backoff. A try past `maxAttempts` gives up. Answers the report.
 */
export async function settleRevocation(
  integration: Integration,
  pending: PendingRevocation,
  options: SettleOptions,
): Promise<RevocationReport> {
  const attempt = await revokeGrant(integration, pending.connection, options);
  const attempts = pending.attempts + 1;
  if (attempt.state !== 'failed') {
    await forget(pending, options);
    return attempt.state === 'revoked'
      ? { state: 'revoked', attempts }
      : { state: attempt.state, reason: attempt.reason, attempts };
  }
  const maxAttempts = options.schedule?.maxAttempts ?? DEFAULT_REVOCATION_ATTEMPTS;
  const failure = { code: attempt.code, attempts };
  if (!attempt.retryable || attempts >= maxAttempts || !options.store) {
    await forget(pending, options);
    const why = !attempt.retryable
      ? attempt.reason
      : `it failed ${attempts} ${attempts === 1 ? 'time' : 'times'} (last: ${attempt.code})${options.store ? '' : ' and the store keeps no pending revocations'}; end the grant in the provider's settings`;
    options.logger?.warn('gave up revoking a removed connection at its provider', {
      connection: pending.connection.id,
      integration: pending.connection.integration,
      code: attempt.code,
      attempts,
    });
    return { state: 'gave_up', reason: why, ...failure };
  }
  const now = options.clock.now();
  const nextAttemptAt = now + revocationDelayMs(attempts, options.schedule);
  const next: PendingRevocation = {
    ...pending,
    connection: attempt.connection ?? pending.connection,
    attempts,
    nextAttemptAt,
    lastError: {
      code: attempt.code,
      at: now,
      ...(attempt.status !== undefined ? { status: attempt.status } : {}),
    },
  };
  // A store that cannot save it now leaves the record as it was, claimed: the next run after the claim tries it again.
  await options.store.put(next).catch((error: unknown) =>
    options.logger?.warn('could not save a pending revocation', {
      pending: pending.id,
      error: (error as Error)?.name,
    }),
  );
  return { state: 'pending', reason: attempt.reason, ...failure, nextAttemptAt, pendingId: pending.id };
}
