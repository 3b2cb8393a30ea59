import type { DoctorCheck } from './doctor-check.js';

/**
 * How several workers share dedupe, locks and rate limits: through the file
 * store on one host, or through the Redis in TOOLSTEPS_REDIS_URL, which must
 * answer (shown without its password).
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
  return {
    name: 'coordination',
    status: status.reachable ? 'ok' : 'fail',
    summary: status.reachable
      ? `redis: locks, quotas, dedupe and connections are shared by every worker through ${status.where}`
      : `redis: ${status.where} does not answer (${status.detail ?? 'no reply'}); workers cannot coordinate`,
    details: [
      `TOOLSTEPS_REDIS_URL is set (shown without credentials: ${status.where})`,
      env.TOOLSTEPS_ENCRYPTION_KEY?.trim()
        ? 'TOOLSTEPS_ENCRYPTION_KEY is set (value not shown)'
        : 'TOOLSTEPS_ENCRYPTION_KEY is not set: shared connections cannot be read or written',
    ],
  };
}
