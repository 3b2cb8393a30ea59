import { InputError } from '../src/errors/input-error.js';

const UNIT_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * `--since` as epoch ms: an ISO 8601 time (`2026-11-26T05:00:00Z`, or a
 * date alone), or an age back from `now` (`90s`, `30m`, `1h`, `7d`).
 * @throws InputError for anything else.
 */
export function sinceOption(value: string, now: number = Date.now()): number {
  const age = /^(\d{1,6})([smhd])$/.exec(value.trim());
  if (age) return now - Number(age[1]) * (UNIT_MS[age[2] as string] as number);
  const at = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at)) {
    throw new InputError(
      `--since takes an ISO 8601 time (2026-11-26T05:00:00Z) or an age (30m, 1h, 7d), got "${value}".`,
      [{ path: 'since', message: 'an ISO time or an age' }],
    );
  }
  return at;
}
