import { timingSafeEqual } from 'node:crypto';

/**
 * Compares a signature we computed with the one a delivery carried, in time
 * that does not depend on where they differ (`crypto.timingSafeEqual`), so a
 * forger cannot learn the right signature a byte at a time. Texts of
 * different lengths are unequal at once: the length of a digest is public.
 */
export function timingSafeEqualText(expected: string, received: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(received, 'utf8');
  if (a.length !== b.length) return false;
  return timingSafeEqual(a, b);
}
