import {
  AuthError,
  CreditError,
  NotFoundError,
  PermissionError,
  ProviderError,
  RateLimitError,
  TimeoutError,
  type ToolstepsError,
} from '../errors/index.js';
import type { ParsedProviderError, ProviderFailure } from '../step/define-integration.js';
import { parseRetryAfter } from './retry-after.js';

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
