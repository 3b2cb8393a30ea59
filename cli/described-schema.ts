import * as z from 'zod';

/**
 * A schema as `describe` prints it: zod's own JSON Schema, anything it cannot
 * express left open. Its own module, imported when `describe` runs, so
 * `list` and `search` (which share the command module) load no zod.
 */
export function describedSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  return z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
}
