import { InputError } from '../src/errors/input-error.js';

const UNIT_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * A span of time typed by a person: `90s`, `30m`, `1h`, `7d` (one whole
 * number and one unit), in milliseconds.
 * @throws InputError naming the flag, for anything else.
 */
export function durationOption(value: string, flag: string): number {
  const match = /^(\d{1,6})([smhd])$/.exec(value.trim());
  const ms = match ? Number(match[1]) * (UNIT_MS[match[2] as string] as number) : Number.NaN;
  if (!(ms > 0)) {
    throw new InputError(`${flag} takes a whole number and a unit: 90s, 30m, 1h or 7d.`, [
      { path: flag.replace(/^--/, ''), message: 'a duration such as 30m, 1h or 7d' },
    ]);
  }
  return ms;
}
