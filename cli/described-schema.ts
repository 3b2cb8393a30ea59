import * as z from 'zod';
import { describeInput, markOptions } from '../src/options/described-input.js';
import type { AnyStep } from '../src/step/define-step.js';
import { cliRuntime } from './cli-context.js';

/**
 * A schema as `describe` prints it: zod's own JSON Schema, anything it cannot
 * express left open. Its own module, imported when `describe` runs, so
 * `list` and `search` (which share the command module) load no zod.
 */
export function describedSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  return z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
}

/**
 * A step's input as `describe` prints it, fields with options marked; with a
 * connection, specialised to that account (its custom fields as named,
 * typed properties), read through the runtime.
 */
export async function describedInput(step: AnyStep, connection: string | undefined) {
  if (connection === undefined) return markOptions(describedSchema(step.input, 'input'), step);
  const { runtime } = await cliRuntime();
  const { $schema: _dropped, ...input } = (await describeInput(step, { runtime, connection })).input;
  return input;
}
