import { isToolstepsError, type ToolstepsError } from '../src/errors/toolsteps-error.js';
import { cutForReading } from './readable-json.js';

/** Exit codes: 0 success, 2 refused before sending (bad input, budget, constraint, plan), 1 any other failure. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_BAD_INPUT = 2;

export interface OutputMode {
  json: boolean;
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * A labelled value for people, printed as JSON so it can still be copied
 * into a program; long strings and lists are cut, and the count of cuts is
 * returned so the caller can say once that --json prints everything.
 */
export function printValue(label: string, value: unknown): number {
  const { value: shown, cuts } = cutForReading(value);
  const rendered = JSON.stringify(shown, null, 2) ?? 'null';
  process.stdout.write(`${label}${rendered.includes('\n') ? '\n' : ' '}${rendered}\n`);
  return cuts;
}

/** Says, on stderr so stdout stays JSON, that the readable output was shortened. */
export function noteCuts(cuts: number): void {
  if (cuts > 0) {
    process.stderr.write(
      `(${cuts} long value${cuts === 1 ? ' was' : 's were'} cut for reading; add --json for the full output)\n`,
    );
  }
}

/**
 * Refusals made here before anything was sent, whatever their class: the
 * input, the credit budget, the plan, or a constraint the embedder set (a
 * PermissionError with no provider status). Exit 2, like a
 * usage error: the caller can fix the request and nothing happened.
 */
export function refusedBeforeSending(error: ToolstepsError): boolean {
  if (error.code === 'input_invalid' || error.code === 'credit_budget_exceeded') return true;
  // Our own not_found (an id this tenant does not hold) has no status; a provider's 404 has one.
  if (error.code === 'not_found' && error.status === undefined) return true;
  // The same classes also carry a provider's own 403 (status set): that is a failure, not a refusal.
  // Without a status it is ours (a project-scope constraint, the Enterprise rule); a scope check may
  // have read first, but the change asked for was never sent.
  return error.status === undefined && (error.code === 'permission_denied' || error.code === 'plan_required');
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
    return refusedBeforeSending(error) ? EXIT_BAD_INPUT : EXIT_FAILURE;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (mode.json) printJson({ error: { code: 'internal_error', message } });
  else process.stderr.write(`error: ${message}\n`);
  return EXIT_FAILURE;
}
