import { traceFields } from '../src/telemetry/traced-logger.js';

/**
 * One log line of a serving command on stderr: for people, or under `--json`
 * one JSON object, which carries `trace_id` and `span_id` when written inside
 * a span (a delivery's, a queued event's), so the line and its trace find
 * each other.
 */
export function logLine(
  json: boolean,
  kind: 'refused' | 'skipped' | 'listening' | 'working' | 'dead' | 'kept-alive' | 'keep-alive-failed',
  text: string,
  fields: Record<string, unknown>,
): void {
  if (json) process.stderr.write(`${JSON.stringify({ [kind]: { ...fields, ...traceFields() } })}\n`);
  else process.stderr.write(`${kind}: ${text}\n`);
}
