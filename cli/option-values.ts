import { InputError } from '../src/errors/input-error.js';
import { connectionIdPattern } from '../src/model/connection-id.js';

/** Collects a repeatable option's values in order. */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * A whole number option (`--port`, `--expires-in`), checked before anything
 * is sent: `Number()` alone would take `''`, `1e3` or `0x10`.
 */
export function integerOption(value: string, flag: string, range: { min: number; max: number }): number {
  const number = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < range.min || number > range.max) {
    throw new InputError(
      `${flag} must be a whole number from ${range.min} to ${range.max}, got "${value}".`,
      [{ path: flag.replace(/^--/, ''), message: `${range.min}-${range.max}` }],
    );
  }
  return number;
}

/** A non-negative number option (`--credit-budget`). */
export function numberOption(value: string, flag: string): number {
  const number = /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isFinite(number)) {
    throw new InputError(`${flag} must be a number of 0 or more, got "${value}".`, [
      { path: flag.replace(/^--/, ''), message: 'not a number' },
    ]);
  }
  return number;
}

const constraintKey = /^[a-z][a-z0-9_]*$/i;

/**
 * `--constraint key=a,b` (repeatable) as the invocation's `constraints`:
 * `projects=shop,docs` -> `{ projects: ['shop', 'docs'] }`. Repeating a key
 * adds to its list; `key=` alone is an empty list, which allows nothing.
 */
export function constraintsOption(pairs: readonly string[] = []): Record<string, string[]> {
  const constraints = new Map<string, string[]>();
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const key = at < 0 ? '' : pair.slice(0, at).trim();
    if (!constraintKey.test(key)) {
      throw new InputError(`--constraint expects key=value,value (e.g. projects=shop,docs), got "${pair}".`, [
        { path: 'constraint', message: 'key=value,value' },
      ]);
    }
    const values = pair
      .slice(at + 1)
      .split(',')
      .map((value) => value.trim())
      .filter(Boolean);
    constraints.set(key, [...new Set([...(constraints.get(key) ?? []), ...values])]);
  }
  return Object.fromEntries(constraints);
}

/** A connection id, checked before anything is sent or saved. */
export function connectionIdOption(id: string): string {
  if (!connectionIdPattern.test(id)) {
    throw new InputError(`Invalid connection id "${id}".`, [
      { path: 'id', message: 'letters, digits, _ and -, up to 64 characters' },
    ]);
  }
  return id;
}
