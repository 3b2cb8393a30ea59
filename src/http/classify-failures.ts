// How a failed request becomes an error of the family: what a wire threw (classifyException),
// the status rules (classifyFailure), and the stage that asks the integration first (rejectFailures).

import {
  AbortedError,
  AuthError,
  CreditError,
  NetworkError,
  NotFoundError,
  PermissionError,
  ProviderError,
  RateLimitError,
  redactDeep,
  TimeoutError,
  type ToolstepsError,
} from '../errors/index.js';
import type { Connection } from '../model/connection.js';
import type { Integration, ParsedProviderError, ProviderFailure } from '../model/define-integration.js';
import { definedOnly } from '../values/defined-only.js';
import type { Answer, Exchange, Outgoing, Send } from './exchange.js';
import { parseRetryAfter } from './retries.js';

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

/** Status-based classification every integration starts from; integrations refine it. */
export function classifyFailure(
  failure: ProviderFailure,
  parsed: ParsedProviderError,
  now: number,
): ToolstepsError {
  const { status, method, path } = failure;
  const said = parsed.message ? `: ${parsed.message}` : '';
  const where = `${method} ${path}`;
  // The provider answered, so the request reached it: `sent` is true for every status.
  const base = {
    status,
    sent: true,
    providerCode: parsed.providerCode,
    providerMessage: parsed.message,
    fields: parsed.fields,
    context: { method, path },
  };
  switch (true) {
    case status === 401:
      return new AuthError(`${where} was refused as unauthenticated (401)${said}.`, base);
    case status === 402:
      return new CreditError(`${where} was refused: the account is out of credits (402)${said}.`, base);
    case status === 403:
      return new PermissionError(`${where} was refused: the connection lacks permission (403)${said}.`, base);
    case status === 404:
      return new NotFoundError(`${where} found nothing (404)${said}.`, base);
    case status === 408:
      return new TimeoutError(`${where} timed out at the provider (408)${said}.`, base);
    case status === 409:
      return new ProviderError(`${where} conflicts with the current state (409)${said}.`, {
        ...base,
        code: 'conflict',
      });
    case status === 429: {
      const retryAfterMs = parseRetryAfter(failure.headers.get('retry-after'), now);
      return new RateLimitError(`${where} hit the provider's rate limit (429)${said}.`, {
        ...base,
        retryAfterMs,
      });
    }
    case status >= 500: {
      const retryAfterMs =
        status === 503 ? parseRetryAfter(failure.headers.get('retry-after'), now) : undefined;
      return new ProviderError(`${where} failed at the provider (${status})${said}.`, {
        ...base,
        retryable: true,
        retryAfterMs,
      });
    }
    default:
      return new ProviderError(`${where} was rejected by the provider (${status})${said}.`, {
        ...base,
        code: 'provider_rejected',
      });
  }
}

export interface RejectFailuresOptions {
  integration: Integration;
  redact: (text: string) => string;
  /** The connection's secrets, removed from an error body before any parser reads (and cuts) it. */
  secrets: () => readonly (string | undefined)[];
  now: () => number;
  connection: () => Connection;
  /** Whether a 401 can still be answered by a refresh (then `withAuthRefresh` decides). */
  canRefresh: boolean;
}

/** The provider's own words, with every secret it may have echoed removed; our messages add their own full stop. */
function parsedError(
  integration: Integration,
  body: unknown,
  redact: (text: string) => string,
): ParsedProviderError {
  const raw = integration.parseError?.(body) ?? {};
  return definedOnly({
    message: raw.message === undefined ? undefined : redact(raw.message).trim().replace(/\.+$/, ''),
    providerCode: raw.providerCode === undefined ? undefined : redact(raw.providerCode),
    fields: raw.fields?.map((field) => ({ path: redact(field.path), message: redact(field.message) })),
  });
}

/**
 * A 401 the client cannot answer with a refresh is final: the connection needs
 * re-authorisation. An integration that explained the 401 itself (a deactivated
 * key, say) keeps its words; the generic one says which credential was refused.
 */
function withoutRefresh(error: ToolstepsError, explained: boolean, connection: Connection): ToolstepsError {
  if (!(error instanceof AuthError) || error.status !== 401) return error;
  const advice = explained
    ? ''
    : ` The ${connection.kind === 'api_key' ? 'API key' : 'token'} of connection "${connection.id}" was not accepted; check it, or reconnect.`;
  return new AuthError(`${error.message}${advice}`, { ...error.asInit(), status: 401, reauthorize: true });
}

/** Turns a provider's failed answer into the error family: the integration's classifier first, then the status rules. */
export function classifyAnswer(
  answer: Answer,
  outgoing: Outgoing,
  options: RejectFailuresOptions,
): ToolstepsError {
  // Redact first, cut after: an integration's parser may cut the provider's text, and a secret
  // cut in half would no longer match its whole form.
  const body = redactDeep(answer.body, options.secrets());
  const failure: ProviderFailure = {
    status: answer.status,
    headers: answer.headers,
    body,
    method: answer.method,
    path: outgoing.path,
    operation: outgoing.operation,
  };
  const parsed = parsedError(options.integration, body, options.redact);
  const specific = options.integration.classifyError?.(failure, parsed);
  const error = specific ?? classifyFailure(failure, parsed, options.now());
  return options.canRefresh ? error : withoutRefresh(error, specific !== undefined, options.connection());
}

/** Every answer outside 2xx becomes an error; answers inside pass through. */
export function rejectFailures(send: Send, options: RejectFailuresOptions): Send {
  return async (outgoing: Outgoing): Promise<Exchange> => {
    const result = await send(outgoing);
    if (!result.ok || (result.answer.status >= 200 && result.answer.status < 300)) return result;
    // The invocation's own secrets and connection when the stages serve many (a prepared transport).
    const scoped = outgoing.call ? { ...options, ...outgoing.call } : options;
    return { ok: false, error: classifyAnswer(result.answer, outgoing, scoped), stats: result.stats };
  };
}
