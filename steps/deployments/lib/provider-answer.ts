import type * as z from 'zod';
import { readAnswer as readKitAnswer } from '../../../src/kit/index.js';

/**
 * A part of the provider's answer read through `schema` (the kit's
 * readAnswer). The readers here know where in the answer they read (`at`:
 * `deployment`, `deployments.3`) and what it should be, not which request
 * brought it: the error says both.
 */
export function readAnswer<Schema extends z.ZodType>(
  schema: Schema,
  raw: unknown,
  at: string,
  expected: string,
): z.output<Schema> {
  return readKitAnswer(schema, raw, 'The provider', { at, expected });
}

/** An epoch-milliseconds time as ISO 8601; null when the provider gave none. */
export function isoTime(ms: number | null | undefined): string | null {
  return typeof ms === 'number' ? new Date(ms).toISOString() : null;
}
