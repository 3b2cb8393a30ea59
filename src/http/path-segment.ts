import * as z from 'zod';

/** A value that, once in a URL path, would leave its segment: separators and control characters. */
const LEAVES_SEGMENT = /[/\\\u0000-\u001f\u007f]/;
const DOT_SEGMENT = /^\.{1,2}$/;
/** How many rounds of %-decoding are checked: a value encoded twice (`%252e`) is still caught. */
const DECODE_ROUNDS = 3;

/**
 * Why `value` cannot be one URL path segment, or undefined when it can. The
 * value is checked as given and after each round of %-decoding, because a
 * provider or proxy that decodes `%2e%2e` or `%2F` would see `..` or `/`.
 */
export function pathSegmentProblem(value: string): string | undefined {
  let form = value;
  for (let round = 0; round <= DECODE_ROUNDS; round += 1) {
    if (form === '') return 'cannot be empty';
    if (DOT_SEGMENT.test(form)) return 'cannot be "." or ".." (they name another path)';
    if (LEAVES_SEGMENT.test(form)) return 'cannot contain "/", "\\" or control characters';
    if (!/%[0-9a-f]{2}/i.test(form)) return undefined;
    try {
      form = decodeURIComponent(form);
    } catch {
      return 'contains a malformed %-escape';
    }
  }
  return 'is %-encoded too many times';
}

/**
 * One URL path segment: an id that a step puts into a provider path. It can
 * never become two segments, none, or a step up (`..`), whatever escapes it
 * holds. Extend it with `.regex()` for a provider's own id format.
 */
export const PathSegment = z.string().superRefine((value, context) => {
  const problem = pathSegmentProblem(value);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});

const NUMERIC_ID_MESSAGE = 'must be a positive whole number, such as 42 or "42"';

/**
 * A numeric id: a positive integer, or a string of decimal digits only (as
 * ids arrive from CLIs, forms and templates). Nothing else is coerced:
 * `true`, `"0x10"`, `[5]`, `"1e3"`, `" 7"` and `"4.0"` are refused, so a
 * slip can never address ticket 1 or 16.
 */
export const NumericId = z
  .union(
    [
      z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
      // Digits only, not all zeros; 15 digits stay below 2^53, so the number is exact.
      z
        .string()
        .regex(/^(?!0+$)[0-9]{1,15}$/)
        .transform(Number),
    ],
    { error: NUMERIC_ID_MESSAGE },
  )
  .describe('A positive whole number.');
