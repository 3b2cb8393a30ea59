import * as z from 'zod';
import { builtOnce } from '../../../src/kit/index.js';

/** Weights of the eleven digits, after 1 is subtracted from the first (provider facts, ATO rule). */
const WEIGHTS = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19] as const;

/** Removes the spaces people type between digit groups ("51 824 753 556"). */
export function normalizeAbn(value: string): string {
  return value.replace(/\s+/g, '');
}

/**
 * The ABN modulus-89 check: subtract 1 from the first digit, weight the
 * digits 10, 1, 3, 5, ... 19, and the sum must divide by 89. Checked here so
 * a mistyped ABN fails before a paid lookup is sent.
 */
export function isValidAbn(value: string): boolean {
  const digits = normalizeAbn(value);
  if (!/^\d{11}$/.test(digits)) return false;
  let sum = 0;
  for (const [index, weight] of WEIGHTS.entries()) {
    const digit = Number(digits[index]) - (index === 0 ? 1 : 0);
    sum += digit * weight;
  }
  return sum % 89 === 0;
}

/** An ABN as typed, spaces allowed; the parsed value is the 11 digits alone. */
export const Abn = builtOnce(() =>
  z
    .string()
    .regex(/^[0-9\s]+$/, 'an ABN is 11 digits (spaces allowed)')
    .transform(normalizeAbn)
    .pipe(
      z
        .string()
        .regex(/^\d{11}$/, 'an ABN is 11 digits (spaces allowed)')
        .refine(isValidAbn, 'not a valid ABN: the modulus-89 check digits do not match'),
    )
    .describe('Australian Business Number: 11 digits, spaces allowed, e.g. "51 824 753 556".'),
);
