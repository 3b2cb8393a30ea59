import { AbortedError, NetworkError, TimeoutError, type ToolstepsError } from '../errors/index.js';

/**
 * Failures that happen before a single byte of the request leaves this
 * machine. Only these make a non-idempotent write safe to send again.
 */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  // undici validates a request before writing it: a refused header or argument never left.
  'UND_ERR_INVALID_ARG',
  'UND_ERR_NOT_SUPPORTED',
  // node:http throws these from http.request, before it opens a socket: a bad header name or value, method or protocol.
  'ERR_INVALID_HTTP_TOKEN',
  'ERR_INVALID_CHAR',
  'ERR_INVALID_PROTOCOL',
]);

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

function errorCode(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as { code?: unknown; cause?: unknown };
  if (typeof record.code === 'string') return record.code;
  return errorCode(record.cause);
}

/** Turns whatever fetch threw into our family, keeping only the low-level code as cause. */
export function classifyException(
  thrown: unknown,
  where: string,
  signals: { userAborted: boolean; timedOut: boolean },
  redact: (text: string) => string,
): ToolstepsError {
  if (signals.userAborted) return new AbortedError(`${where} was aborted by the caller.`);
  const code = errorCode(thrown);
  // Only the code and a redacted message survive: the raw error may hold request details.
  const cause = new Error(redact(thrown instanceof Error ? thrown.message : String(thrown)));
  if (signals.timedOut || (code && TIMEOUT_CODES.has(code))) {
    return new TimeoutError(`${where} timed out${code ? ` (${code})` : ''}.`, {
      cause,
      transportCode: code,
      sent: 'unknown',
    });
  }
  const sent = code && NOT_SENT_CODES.has(code) ? false : 'unknown';
  return new NetworkError(`${where} failed on the network${code ? ` (${code})` : ''}.`, {
    cause,
    transportCode: code,
    sent,
  });
}
