/** How pending revocations are retried: how many tries in all, and the wait before each next one. */
export interface RevocationSchedule {
  /** Tries in all, the first (at removal) included, before one is given up (default 8: about a day and a half). */
  maxAttempts?: number;
  /** The wait after the first failed try (default 1 minute); each next one is 4 times longer, up to `maxDelayMs`. */
  firstDelayMs?: number;
  /** The longest wait between tries (default 12 hours). */
  maxDelayMs?: number;
}

/** Tries in all before a pending revocation is given up, unless `RevocationSchedule.maxAttempts` says otherwise. */
export const DEFAULT_REVOCATION_ATTEMPTS = 8;
const DEFAULT_FIRST_DELAY_MS = 60_000;
const DEFAULT_MAX_DELAY_MS = 12 * 60 * 60_000;
/** How long a run that took a pending revocation holds it, so another run (worker, cron) does not send it too. */
export const REVOCATION_CLAIM_MS = 2 * 60_000;

/** The wait after `attempts` failed tries: 1 min, 4 min, 16 min, 64 min, ~4 h, then 12 h (the defaults). */
export function revocationDelayMs(attempts: number, schedule: RevocationSchedule = {}): number {
  const first = schedule.firstDelayMs ?? DEFAULT_FIRST_DELAY_MS;
  const most = schedule.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  return Math.min(most, first * 4 ** Math.max(0, attempts - 1));
}
