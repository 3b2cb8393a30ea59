import { ToolstepsError } from '../errors/toolsteps-error.js';
import type { Integration } from '../model/define-integration.js';
import type { PendingRevocation } from '../model/pending-revocation.js';
import type { RevocationReport } from '../model/revocation-report.js';
import type { RecordStore } from '../store/record-store.js';
import { REVOCATION_CLAIM_MS } from './revocation-schedule.js';
import { type SettleOptions, settleRevocation } from './settle-revocation.js';

/** What a retry pass needs: where integrations resolve, and everything a try needs but the store. */
export interface RetryPendingOptions extends Omit<SettleOptions, 'store'> {
  /** The integration of an id (a registry's `integration`); one unknown here is left for a run that knows it. */
  integration(id: string): Integration | undefined;
  /** Try every pending revocation now, whatever its backoff says (`connections revoke-pending --now`). */
  ignoreBackoff?: boolean;
  /** Only this tenant's. */
  tenant?: string;
}

/** One pending revocation as a retry pass left it: public facts only (ids and the report), no token. */
export interface PendingRevocationOutcome {
  pendingId: string;
  tenant: string;
  connection: { id: string; integration: string; label: string | null };
  revocation: RevocationReport;
}

/** What a retry pass did, and what it left alone (not due yet, held by another run, integration unknown). */
export interface RetryPendingReport {
  outcomes: PendingRevocationOutcome[];
  /** Still waiting, not tried by this pass. */
  waiting: PendingRevocationOutcome[];
}

/** Something that holds the pending revocations: a `TenantStores` of any backend, or the store itself. */
export type PendingRevocationSource =
  | { readonly pendingRevocations?: RecordStore<PendingRevocation> | undefined }
  | RecordStore<PendingRevocation>;

/** The store a source holds: its `pendingRevocations`, or itself. */
export function pendingStoreOf(
  source: PendingRevocationSource | undefined,
): RecordStore<PendingRevocation> | undefined {
  if (!source) return undefined;
  return 'pendingRevocations' in source
    ? source.pendingRevocations
    : (source as RecordStore<PendingRevocation>);
}

function described(pending: PendingRevocation, revocation: RevocationReport): PendingRevocationOutcome {
  const { id, integration, label } = pending.connection;
  return {
    pendingId: pending.id,
    tenant: pending.tenant,
    connection: { id, integration, label: label ?? null },
    revocation,
  };
}

/** The report of one still waiting, as a listing (doctor, `revoke-pending --list`) shows it. */
export function waitingReport(pending: PendingRevocation): RevocationReport {
  return {
    state: 'pending',
    attempts: pending.attempts,
    nextAttemptAt: pending.nextAttemptAt,
    pendingId: pending.id,
    ...(pending.lastError ? { code: pending.lastError.code } : {}),
  };
}

/**
 * Thrown out of the claim's update to leave the record as it is. One of
 * ours, not a bare value: a store passes our errors through as they are,
 * while it reports anything else thrown inside its transaction as its own
 * failure (Postgres did: "PostgreSQL is not available").
 */
class NotDueYet extends ToolstepsError {
  constructor() {
    super('invalid_state', 'This pending revocation is not due yet.');
  }
}

/**
 * Takes a due pending revocation for this run: an atomic update (a
 * compare-and-set in Redis and Postgres) that moves its next try past the
 * claim, so two runs at once (workers, cron) never both send it.
 */
async function claim(
  store: RecordStore<PendingRevocation>,
  pending: PendingRevocation,
  now: number,
  ignoreBackoff: boolean,
): Promise<PendingRevocation | undefined> {
  try {
    return await store.update(pending.id, (current) => {
      if (current.nextAttemptAt > now && !ignoreBackoff) throw new NotDueYet();
      return { ...current, nextAttemptAt: now + REVOCATION_CLAIM_MS };
    });
  } catch (error) {
    if (error instanceof NotDueYet) return undefined;
    // Gone meanwhile (another run settled it): nothing to do.
    if ((error as { code?: string })?.code === 'not_found') return undefined;
    throw error;
  }
}

/**
 * One pass over the pending revocations (removed connections whose grant
 * the provider has not confirmed taking back): each one due is sent again,
 * then forgotten when done, given up past its tries (with a report saying
 * what to do by hand), or put back to wait longer. Safe to run from many
 * processes at once. `toolsteps connections revoke-pending` runs it, and so
 * may a keep-alive loop, a worker's start, or an embedder's scheduler.
 */
export async function retryPendingRevocations(
  source: PendingRevocationSource,
  options: RetryPendingOptions,
): Promise<RetryPendingReport> {
  const report: RetryPendingReport = { outcomes: [], waiting: [] };
  const store = pendingStoreOf(source);
  if (!store) return report;
  for (const listed of await store.list()) {
    if (options.tenant !== undefined && listed.tenant !== options.tenant) continue;
    const integration = options.integration(listed.connection.integration);
    const now = options.clock.now();
    const claimed = integration ? await claim(store, listed, now, options.ignoreBackoff ?? false) : undefined;
    if (!integration || !claimed) {
      report.waiting.push(described(listed, waitingReport(listed)));
      continue;
    }
    const revocation = await settleRevocation(integration, claimed, { ...options, store });
    report.outcomes.push(described(claimed, revocation));
  }
  return report;
}
