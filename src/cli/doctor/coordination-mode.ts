import type { DoctorCheck } from './doctor-check.js';

/**
 * How several workers share dedupe, locks and rate limits. Today: one host,
 * through the file store (O_EXCL claims, lock files). A Redis URL in
 * TOOLSTEPS_REDIS_URL is reported by presence only: it may hold a password.
 */
export function checkCoordinationMode(env: NodeJS.ProcessEnv = process.env): DoctorCheck {
  const redis = Boolean(env.TOOLSTEPS_REDIS_URL?.trim());
  return {
    name: 'coordination',
    status: 'info',
    summary: 'single process (file store): several processes on one host coordinate through $TOOLSTEPS_HOME',
    details: [
      redis
        ? 'TOOLSTEPS_REDIS_URL is set (value not shown); this command does not use it'
        : 'TOOLSTEPS_REDIS_URL is not set',
    ],
  };
}
