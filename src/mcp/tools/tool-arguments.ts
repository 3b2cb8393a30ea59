import type * as z from 'zod';
import { InputError } from '../../errors/index.js';

/** A tool's arguments read through its schema, or an InputError naming each failing field. */
export function parseArguments<T extends z.ZodType>(schema: T, args: unknown, tool: string): z.output<T> {
  const parsed = schema.safeParse(args ?? {});
  if (parsed.success) return parsed.data;
  const fields = parsed.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(arguments)',
    message: issue.message,
  }));
  throw new InputError(
    `Invalid arguments for ${tool}: ${fields.map((field) => `${field.path}: ${field.message}`).join('; ')}.`,
    fields,
  );
}
