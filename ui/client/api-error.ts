/**
 * What the builder API said no with, as a person should read it. The API's
 * errors carry a code and the failing fields (never a token or a key); the
 * kit shows the message, puts field messages beside their fields, and turns
 * the token's own failures into a sentence that says what to do.
 */
export interface FieldProblem {
  path: string;
  message: string;
}

interface ErrorBody {
  error?: {
    code?: string;
    message?: string;
    fields?: FieldProblem[];
    details?: { fields?: FieldProblem[] };
    retryAfterMs?: number;
  };
  code?: string;
  message?: string;
  fields?: FieldProblem[];
  retryAfterMs?: number;
}

/**
 * The codes of the chosen account's sign-in refused by its provider (the
 * builder API answers them 502; its own 401 is the session's token).
 */
const ACCOUNT_SIGN_IN_REFUSED = new Set(['auth_failed', 'reauthorization_required']);

/** The one error the kit's elements and BuilderClient throw, worded for the person at the page. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly fields: readonly FieldProblem[] = [],
    /** With a 429: how long the API asked to wait before the next request. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }

  /** The account's provider refused its sign-in: the way on is reconnecting that account, not a new builder session. */
  get needsReconnect(): boolean {
    return ACCOUNT_SIGN_IN_REFUSED.has(this.code);
  }

  /** Reads the API's error body, and words a 401 or 403 as what the user can do about it. */
  static fromResponse(status: number, body: unknown): ApiError {
    const shape = (typeof body === 'object' && body !== null ? body : {}) as ErrorBody;
    const inner = shape.error ?? shape;
    const code = inner.code ?? `http_${status}`;
    const fields = inner.fields ?? shape.error?.details?.fields ?? [];
    if (status === 401) {
      // The API does not say which (a token's failures look alike to whoever holds it), so the sentence covers both.
      const expired = /expired/i.test(code);
      return new ApiError(
        expired
          ? 'Your builder session has expired. Open the builder again to get a new session.'
          : 'Your builder session has expired or is not valid. Open the builder again to get a new session.',
        status,
        code,
      );
    }
    if (ACCOUNT_SIGN_IN_REFUSED.has(code)) {
      return new ApiError("This account's sign-in was refused: reconnect it.", status, code, fields);
    }
    if (status === 403) {
      return new ApiError(inner.message ?? 'This session is not allowed to do that.', status, code, fields);
    }
    const retryAfterMs = typeof inner.retryAfterMs === 'number' ? inner.retryAfterMs : undefined;
    return new ApiError(
      inner.message ?? `The builder API answered ${status}.`,
      status,
      code,
      fields,
      retryAfterMs,
    );
  }

  /** A request that got no answer: the API is down, or it refused this page's origin (CORS looks the same from here). */
  static unreachable(origin: string, cause: unknown): ApiError {
    const error = new ApiError(
      `The builder API at ${origin} could not be reached (or refused this page's origin).`,
      0,
      'unreachable',
    );
    (error as { cause?: unknown }).cause = cause;
    return error;
  }
}
