import { inspect } from 'node:util';
import { isToolstepsError } from '../errors.js';

/** Exit codes: 0 success, 2 bad input (nothing was sent), 1 any other failure. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_BAD_INPUT = 2;

export interface OutputMode {
  json: boolean;
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function printValue(label: string, value: unknown): void {
  const rendered =
    typeof value === 'string' ? value : inspect(value, { depth: 6, colors: false, breakLength: 100 });
  process.stdout.write(`${label}${rendered.includes('\n') ? '\n' : ' '}${rendered}\n`);
}

/** Prints an error the way the mode asks and returns the exit code it deserves. */
export function reportError(error: unknown, mode: OutputMode): number {
  if (isToolstepsError(error)) {
    if (mode.json) printJson({ error: error.toJSON() });
    else {
      process.stderr.write(`error [${error.code}]: ${error.message}\n`);
      for (const issue of error.fields) process.stderr.write(`  - ${issue.path}: ${issue.message}\n`);
      if (error.hint) process.stderr.write(`  hint: ${error.hint}\n`);
    }
    return error.code === 'input_invalid' ? EXIT_BAD_INPUT : EXIT_FAILURE;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (mode.json) printJson({ error: { code: 'internal_error', message } });
  else process.stderr.write(`error: ${message}\n`);
  return EXIT_FAILURE;
}
