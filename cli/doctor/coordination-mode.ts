import type { RedisPersistence } from '../../src/coordination/redis-persistence.js';
import type { DoctorCheck } from './doctor-check.js';

const LOST_ON_RESTART = 'every connection, subscription, dedupe record, lock and queued event';

/** How what the Redis persists stands: a Redis that keeps nothing loses all shared state on a restart. */
function persistenceVerdict(persistence: RedisPersistence | undefined): {
  status: 'ok' | 'warn';
  note: string;
  detail: string;
} {
  switch (persistence?.kind) {
    case 'aof':
      return {
        status: 'ok',
        note: '',
        detail: `persistence: append-only file (appendfsync ${persistence.appendfsync})`,
      };
    case 'snapshots':
      return {
        status: 'ok',
        note: '',
        detail: `persistence: snapshots only (save ${persistence.save}): a restart loses what was written since the last one, refreshed tokens included; appendonly yes keeps every write`,
      };
    case 'none':
      return {
        status: 'warn',
        note: `, but it persists nothing: a restart loses ${LOST_ON_RESTART}`,
        detail:
          'persistence: none (CONFIG GET save is empty and appendonly is no): turn on the append-only file (appendonly yes)',
      };
    default:
      return {
        status: 'ok',
        note: ' (persistence unknown)',
        detail: `persistence: unknown (${persistence?.reason ?? 'not asked'}); without an append-only file or snapshots a restart loses ${LOST_ON_RESTART}`,
      };
  }
}

/**
 * How several workers share dedupe, locks and rate limits: through the file
 * store on one host, or through the Redis in TOOLSTEPS_REDIS_URL, which must
 * answer (shown without its password) and should persist what it holds. Needs
 * no encryption key: nothing sealed is read.
 */
export async function checkCoordinationMode(env: NodeJS.ProcessEnv = process.env): Promise<DoctorCheck> {
  const { configuredRedisUrl, describeCoordination } = await import(
    '../../src/coordination/open-coordinator.js'
  );
  if (!configuredRedisUrl({ env })) {
    return {
      name: 'coordination',
      status: 'info',
      summary:
        'single process (file store): several processes on one host coordinate through $TOOLSTEPS_HOME',
      details: ['TOOLSTEPS_REDIS_URL is not set'],
    };
  }
  const status = await describeCoordination({ env });
  const details = [
    `TOOLSTEPS_REDIS_URL is set (shown without credentials: ${status.where})`,
    env.TOOLSTEPS_ENCRYPTION_KEY?.trim()
      ? 'TOOLSTEPS_ENCRYPTION_KEY is set (value not shown)'
      : 'TOOLSTEPS_ENCRYPTION_KEY is not set: shared connections can be listed but not used or changed',
  ];
  if (!status.reachable) {
    return {
      name: 'coordination',
      status: 'fail',
      summary: `redis: ${status.where} does not answer (${status.detail ?? 'no reply'}); workers cannot coordinate`,
      details,
    };
  }
  const verdict = persistenceVerdict(status.persistence);
  return {
    name: 'coordination',
    status: verdict.status,
    summary: `redis: locks, quotas, dedupe and connections are shared by every worker through ${status.where}${verdict.note}`,
    details: [...details, verdict.detail],
  };
}
