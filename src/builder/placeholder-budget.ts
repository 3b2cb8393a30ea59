import { InputError } from '../errors/index.js';

/**
 * Placeholders one draft input may hold. A real draft names a handful of
 * variables, a long message template a few dozen; a thousand is never met
 * by one, and keeps the work of filling them small.
 */
export const MAX_PLACEHOLDERS = 1_000;

/**
 * Characters the input may hold once filled (its strings, and each
 * placeholder's sample as written out). A real draft fills to a few KB,
 * within the 64 KB a request body may be; 1 Mi characters is never met by
 * one, while repeating a large sample in every placeholder of a 64 KB body
 * would otherwise build hundreds of MB on the event loop.
 */
export const MAX_FILLED_CHARS = 1 << 20;

/** A `{{name}}` placeholder (global: String.replace and matchAll copy it, so no state is shared). */
export const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g;

/**
 * Measures what filling `input` from `samples` would build, without
 * building it: it counts placeholders and sums lengths, each sample's
 * length measured once, and stops at the first cap crossed. Its work is
 * bounded by the request's own size, so one request cannot hold the loop.
 * Throws an InputError naming the field where a cap was crossed.
 */
export function checkPlaceholderBudget(
  input: Record<string, unknown>,
  samples: Record<string, unknown>,
): void {
  const lengths = new Map<string, number>();
  const sampleLength = (name: string): number => {
    let length = lengths.get(name);
    if (length === undefined) {
      const value = Object.hasOwn(samples, name) ? samples[name] : '';
      length = typeof value === 'string' ? value.length : (JSON.stringify(value ?? null)?.length ?? 4);
      lengths.set(name, length);
    }
    return length;
  };
  let placeholders = 0;
  let chars = 0;
  const grow = (length: number, path: string) => {
    chars += length;
    if (chars > MAX_FILLED_CHARS) throw overBudget(path, `filled input over ${MAX_FILLED_CHARS} characters`);
  };
  const measure = (text: string, path: string) => {
    grow(text.length, path);
    for (const match of text.matchAll(PLACEHOLDER)) {
      placeholders += 1;
      if (placeholders > MAX_PLACEHOLDERS) {
        throw overBudget(path, `more than ${MAX_PLACEHOLDERS} placeholders`);
      }
      grow(sampleLength(match[1]!) - match[0].length, path);
    }
  };
  const walk = (value: unknown, path: string): void => {
    if (typeof value === 'string') measure(value, path);
    else if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) walk(item, `${path}.${index}`);
    } else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) walk(inner, path ? `${path}.${key}` : key);
    }
  };
  walk(input, '');
}

/** The refusal of an input past a cap: the field and the cap, never the sample text. */
function overBudget(path: string, message: string): InputError {
  return new InputError(
    `The test input is too large once filled from the samples (${message}); a draft needs far less.`,
    [{ path: path || '(input)', message }],
  );
}
