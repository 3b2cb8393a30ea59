import type * as z from 'zod';
import { OutputError } from '../../../src/kit/index.js';

/**
 * The provider's answer read through `schema`; an OutputError naming each
 * failing field (under `where`) when it is not `what` at all.
 */
export function readAnswer<Schema extends z.ZodType>(
  schema: Schema,
  raw: unknown,
  where: string,
  what: string,
): z.output<Schema> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({
    path: [where, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  throw new OutputError(
    `The provider answered with something that is not ${what}: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}.`,
    issues,
  );
}

/** An epoch-milliseconds time as ISO 8601; null when the provider gave none. */
export function isoTime(ms: number | null | undefined): string | null {
  return typeof ms === 'number' ? new Date(ms).toISOString() : null;
}
