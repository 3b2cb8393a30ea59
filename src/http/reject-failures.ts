import type { Connection } from '../connection/connection.js';
import { AuthError, redactDeep, type ToolstepsError } from '../errors/index.js';
import type { Integration, ParsedProviderError, ProviderFailure } from '../step/define-integration.js';
import { definedOnly } from '../values/defined-only.js';
import { classifyFailure } from './classify-response.js';
import type { Answer, Exchange, Outgoing, Send } from './exchange.js';

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
    return { ok: false, error: classifyAnswer(result.answer, outgoing, options), stats: result.stats };
  };
}
