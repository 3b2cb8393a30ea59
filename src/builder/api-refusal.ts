import { type FieldIssue, isToolstepsError } from '../errors/index.js';
import { definedOnly } from '../values/defined-only.js';
import type { ApiError } from './api-schemas.js';

/**
 * A refusal of the server's own (no token, wrong scope, foreign origin, too
 * large, too many): its HTTP status and the code the page branches on.
 */
export class ApiRefusal extends Error {
  override readonly name = 'ApiRefusal';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: readonly FieldIssue[] = [],
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/**
 * The HTTP status of a library error, by its code: the caller's mistakes are
 * 4xx, the provider's 502. A library `auth_failed` or
 * `reauthorization_required` is the chosen account's sign-in refused by its
 * provider: 502 too, because 401 means the builder session's own token, and a
 * page that read it so would send the person to sign in to the builder again
 * instead of offering to reconnect the account. The code tells the two apart.
 */
const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  input_invalid: 400,
  output_invalid: 502,
  auth_failed: 502,
  reauthorization_required: 502,
  permission_denied: 403,
  not_found: 404,
  conflict: 409,
  invalid_state: 409,
  plan_required: 402,
  credits_exhausted: 402,
  credit_budget_exceeded: 402,
  rate_limited: 429,
  tenant_limit_exceeded: 429,
  timeout: 504,
  aborted: 499,
  storage_unavailable: 503,
};

/**
 * Any failure as a status and the API's error body. Library errors carry
 * messages already free of secrets (the family redacts before anything
 * leaves it); anything else is an internal fault, answered without its
 * text, which might hold anything.
 */
export function errorAnswer(error: unknown): { status: number; body: ApiError } {
  if (error instanceof ApiRefusal) {
    const { status, code, message, fields, retryAfterMs } = error;
    return {
      status,
      body: {
        error: {
          code,
          message,
          // Too many for the caller (429) or for the server just now (503): both pass.
          retryable: status === 429 || status === 503,
          fields: [...fields],
          ...definedOnly({ retryAfterMs }),
        },
      },
    };
  }
  if (isToolstepsError(error)) {
    // A provider's own refusal of an authenticated call is a bad gateway to the page, not the page's 401.
    const status =
      error.status !== undefined && error.code === 'provider_error'
        ? 502
        : (STATUS_BY_CODE[error.code] ?? 502);
    return {
      status,
      body: {
        error: {
          code: error.code,
          message: error.message,
          retryable: error.retryable,
          fields: error.fields.map(({ path, message }) => ({ path, message })),
          ...definedOnly({ hint: error.hint, retryAfterMs: error.retryAfterMs }),
        },
      },
    };
  }
  return {
    status: 500,
    body: {
      error: {
        code: 'internal_error',
        message: 'The request could not be handled.',
        retryable: false,
        fields: [],
      },
    },
  };
}
