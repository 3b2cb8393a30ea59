import { DEFAULT_KEEP_ALIVE_WINDOW_MS } from '../src/connection/connection-health.js';
import { InputError } from '../src/errors/input-error.js';

/**
 * The keep-alive window the CLI uses (`TOOLSTEPS_KEEP_ALIVE_WINDOW_DAYS`,
 * default 7): a refresh token ending within it is renewed ahead of time,
 * and its connection reads `expiring` until it is.
 */
export function keepAliveWindowMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.TOOLSTEPS_KEEP_ALIVE_WINDOW_DAYS?.trim();
  if (!raw) return DEFAULT_KEEP_ALIVE_WINDOW_MS;
  const days = Number(raw);
  if (!Number.isFinite(days) || days <= 0 || days > 90) {
    throw new InputError('TOOLSTEPS_KEEP_ALIVE_WINDOW_DAYS must be a number of days above 0, up to 90.', [
      { path: 'TOOLSTEPS_KEEP_ALIVE_WINDOW_DAYS', message: 'out of range' },
    ]);
  }
  return Math.round(days * 86_400_000);
}
