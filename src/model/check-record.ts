import type * as z from 'zod';
import { type FieldIssue, InputError } from '../errors/index.js';

/**
 * A record about to be stored, checked against its schema: bad values are an
 * InputError naming the failing fields (`noun` says what the record is), not
 * a raw schema error. Issue messages name the rule, never the value, so no
 * secret reaches the error.
 */
export function checkRecord<S extends z.ZodType>(schema: S, noun: string, value: z.input<S>): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues: FieldIssue[] = parsed.error.issues.map((issue) => ({
    path: issue.path.join('.') || `(${noun})`,
    message: issue.message,
  }));
  throw new InputError(
    `Invalid ${noun}: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}.`,
    issues,
  );
}
