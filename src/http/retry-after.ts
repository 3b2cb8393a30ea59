/** delay-seconds; a fraction is read as seconds too, since some providers send one. */
const SECONDS = /^\d+(?:\.\d+)?$/;
/** Each of the three HTTP-date forms (RFC 9110 §5.6.7) starts with a day name. */
const HTTP_DATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /;

/**
 * Parses `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date.
 * Returns milliseconds from `now`, or undefined when absent or unreadable.
 * Only a value shaped like an HTTP-date is read as a date: `Date.parse`
 * takes `-1` and `1.5` for years and months, which would make a wait of 0.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (SECONDS.test(trimmed)) return Math.ceil(Number(trimmed) * 1000);
  if (!HTTP_DATE.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
