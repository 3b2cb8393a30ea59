import type { Command } from 'commander';
import { InputError } from '../../src/errors/index.js';
import { resolveOptions } from '../../src/options/resolve-options.js';
import { isPlainRecord } from '../../src/values/plain-record.js';
import { cliRuntime, cliStep } from '../cli-context.js';
import { printJson } from '../output.js';
import { readInput } from './run-step-action.js';

export interface OptionsFlags {
  connection?: string;
  query?: string;
  cursor?: string;
  input?: string;
}

/** Asks for one field's choices through the runtime's pipeline and prints them: JSON, or one line each. */
export async function optionsAction(stepId: string, field: string, flags: OptionsFlags, command: Command) {
  const [step, { runtime }] = await Promise.all([cliStep(stepId), cliRuntime()]);
  const input = flags.input === undefined ? undefined : await readInput(flags.input);
  if (input !== undefined && !isPlainRecord(input)) {
    throw new InputError('--input must be a JSON object.', [{ path: 'input', message: 'not an object' }]);
  }
  const answer = await resolveOptions(runtime, step, field, {
    connection: flags.connection,
    query: flags.query,
    cursor: flags.cursor,
    input,
  });
  if (command.optsWithGlobals().json) {
    printJson(answer);
    return;
  }
  const out = process.stdout;
  if (!answer.items.length) out.write('(no choices)\n');
  for (const item of answer.items) {
    out.write(`${String(item.value)}\t${item.label}${item.description ? `\t(${item.description})` : ''}\n`);
  }
  if (answer.truncated) out.write('(more choices than one answer holds were cut)\n');
  if (answer.next_cursor) out.write(`more: --cursor ${answer.next_cursor}\n`);
}
