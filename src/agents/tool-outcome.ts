import { type ErrorJson, isToolstepsError } from '../errors/index.js';
import type { InvocationResult } from '../runtime/runtime.js';

/** The error shape every tool result carries: the family's `toJSON()`, or a bare stand-in for a bug. */
export type ToolErrorJson =
  | ErrorJson
  | { name: string; code: 'internal_error'; message: string; retryable: false };

/** What one tool call came to, for the result helpers of each SDK. */
export type ToolOutcome = { ok: true; result: InvocationResult } | { ok: false; error: ToolErrorJson };

/**
 * Any thrown value as the JSON an agent reads. The runtime has already
 * redacted every secret from the family's errors and from foreign ones.
 */
export function errorJsonOf(error: unknown): ToolErrorJson {
  if (isToolstepsError(error)) return error.toJSON();
  return {
    name: 'Error',
    code: 'internal_error',
    message: error instanceof Error ? error.message : String(error),
    retryable: false,
  };
}

export async function settle(call: Promise<InvocationResult>): Promise<ToolOutcome> {
  try {
    return { ok: true, result: await call };
  } catch (error) {
    return { ok: false, error: errorJsonOf(error) };
  }
}

/** The JSON a text-only tool result carries: the result, or `{error}`. */
export function outcomeJson(outcome: ToolOutcome): { [key: string]: unknown } {
  return outcome.ok ? { ...outcome.result } : { error: outcome.error };
}

/**
 * A short text beside the structured result, for clients that show text
 * only: what happened in one line, then the output (or the error) as JSON.
 */
export function renderOutcome(outcome: ToolOutcome): string {
  if (!outcome.ok) {
    const fields = outcome.error.code === 'internal_error' ? [] : (outcome.error.fields ?? []);
    const lines = [`Error [${outcome.error.code}]: ${outcome.error.message}`];
    for (const field of fields) lines.push(`- ${field.path}: ${field.message}`);
    if ('hint' in outcome.error && outcome.error.hint) lines.push(`Hint: ${outcome.error.hint}`);
    return lines.join('\n');
  }
  const { meta, output, variables } = outcome.result;
  const head = `${meta.step} succeeded on connection ${meta.connection} (${meta.attempts} request${meta.attempts === 1 ? '' : 's'}, ${meta.durationMs} ms).`;
  // A model reading text only must still learn that a write failed and the runtime found its work done.
  const replay = meta.replay
    ? ` A write failed (${meta.replay.after}) after it may have landed; the runtime found the work done: ${meta.replay.decision}.`
    : '';
  return `${head}${replay}\n${JSON.stringify({ output, variables })}`;
}
