/**
 * The error family. Every failure a caller can see is one of these: a string
 * `code` to branch on, `retryable` to tell an agent whether trying again can
 * help, `status` when a provider answered, and structured `details`.
 * Messages name the method and path but never carry a secret: everything
 * that reaches a message passes through `redactSecrets` first.
 */

export type ErrorCode =
  | 'input_invalid'
  | 'auth_failed'
  | 'reauthorization_required'
  | 'not_found'
  | 'permission_denied'
  | 'rate_limited'
  | 'provider_error'
  | 'provider_rejected'
  | 'conflict'
  | 'invalid_state'
  | 'network_error'
  | 'timeout'
  | 'aborted'
  | 'output_invalid'
  | 'credits_exhausted'
  | 'credit_budget_exceeded'
  | 'plan_required'
  | 'partial_failure';

export interface FieldIssue {
  /** Dotted path of the failing field, e.g. `ticket.subject` or `people.3.email`. */
  path: string;
  message: string;
}

export interface ToolstepsErrorOptions {
  status?: number;
  retryable?: boolean;
  details?: Record<string, unknown>;
  cause?: unknown;
}

export class ToolstepsError extends Error {
  readonly code: ErrorCode;
  /**
   * Whether trying again can help. Cleared by the transport when a write may
   * already have taken effect, because an agent's retry could do it twice.
   */
  retryable: boolean;
  readonly status: number | undefined;
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: ToolstepsErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.status = options.status;
    this.details = options.details ?? {};
  }

  /** The shape printed by the CLI and handed to agents. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      retryable: this.retryable,
      ...(this.status === undefined ? {} : { status: this.status }),
      ...(Object.keys(this.details).length ? { details: this.details } : {}),
    };
  }
}

/** Bad input to a step, connection or mapping. Raised before any request is sent. */
export class InputError extends ToolstepsError {
  readonly issues: FieldIssue[];
  constructor(message: string, issues: FieldIssue[] = [], options: ToolstepsErrorOptions = {}) {
    super('input_invalid', message, { ...options, details: { ...options.details, issues } });
    this.issues = issues;
  }
}

export class AuthError extends ToolstepsError {
  constructor(message: string, options: ToolstepsErrorOptions & { reauthorize?: boolean } = {}) {
    super(options.reauthorize ? 'reauthorization_required' : 'auth_failed', message, options);
  }
}

export class NotFoundError extends ToolstepsError {
  constructor(message: string, options: ToolstepsErrorOptions = {}) {
    super('not_found', message, options);
  }
}

export class PermissionError extends ToolstepsError {
  constructor(message: string, options: ToolstepsErrorOptions = {}) {
    super('permission_denied', message, options);
  }
}

export class RateLimitError extends ToolstepsError {
  /** How long the provider asked us to wait, when it said. */
  readonly retryAfterMs: number | undefined;
  constructor(message: string, options: ToolstepsErrorOptions & { retryAfterMs?: number } = {}) {
    super('rate_limited', message, {
      retryable: true,
      ...options,
      details: { ...options.details, retryAfterMs: options.retryAfterMs },
    });
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** The provider refused or failed; `details.providerMessage` holds its own words. */
export class ProviderError extends ToolstepsError {
  constructor(
    message: string,
    options: ToolstepsErrorOptions & {
      code?: 'provider_error' | 'provider_rejected' | 'conflict' | 'invalid_state';
    } = {},
  ) {
    super(options.code ?? 'provider_error', message, options);
  }
}

export class NetworkError extends ToolstepsError {
  constructor(message: string, options: ToolstepsErrorOptions = {}) {
    super('network_error', message, { retryable: true, ...options });
  }
}

export class TimeoutError extends ToolstepsError {
  constructor(message: string, options: ToolstepsErrorOptions = {}) {
    super('timeout', message, { retryable: true, ...options });
  }
}

export class AbortedError extends ToolstepsError {
  constructor(message: string, options: ToolstepsErrorOptions = {}) {
    super('aborted', message, options);
  }
}

/** The provider answered with something the step's output schema does not accept. */
export class OutputError extends ToolstepsError {
  readonly issues: FieldIssue[];
  constructor(message: string, issues: FieldIssue[] = [], options: ToolstepsErrorOptions = {}) {
    super('output_invalid', message, { ...options, details: { ...options.details, issues } });
    this.issues = issues;
  }
}

export class CreditError extends ToolstepsError {
  constructor(
    message: string,
    options: ToolstepsErrorOptions & { code?: 'credits_exhausted' | 'credit_budget_exceeded' } = {},
  ) {
    super(options.code ?? 'credits_exhausted', message, { ...options, retryable: false });
  }
}

export class PlanError extends ToolstepsError {
  constructor(message: string, options: ToolstepsErrorOptions = {}) {
    super('plan_required', message, { ...options, retryable: false });
  }
}

export function isToolstepsError(value: unknown): value is ToolstepsError {
  return value instanceof ToolstepsError;
}

const MIN_SECRET_LENGTH = 4;

/**
 * Replaces every occurrence of every secret in `text`, including their URL-
 * and JSON-encoded forms, so a provider that echoes a token back in an error
 * body cannot leak it through us.
 */
export function redactSecrets(text: string, secrets: Iterable<string | undefined>): string {
  let result = text;
  for (const secret of secrets) {
    if (!secret || secret.length < MIN_SECRET_LENGTH) continue;
    const forms = new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]);
    for (const form of forms) result = result.split(form).join('[redacted]');
  }
  return result;
}

/** `redactSecrets` over every string inside a JSON-like value; the value is copied only where it changes. */
export function redactDeep(value: unknown, secrets: readonly string[]): unknown {
  const usable = secrets.filter((secret) => secret && secret.length >= MIN_SECRET_LENGTH);
  if (!usable.length) return value;
  const visit = (item: unknown): unknown => {
    if (typeof item === 'string') return redactSecrets(item, usable);
    if (Array.isArray(item)) {
      const mapped = item.map(visit);
      return mapped.some((entry, index) => entry !== item[index]) ? mapped : item;
    }
    if (item && typeof item === 'object' && Object.getPrototypeOf(item) === Object.prototype) {
      let changed = false;
      const copy: Record<string, unknown> = {};
      for (const [key, entry] of Object.entries(item)) {
        const next = visit(entry);
        const nextKey = redactSecrets(key, usable);
        if (next !== entry || nextKey !== key) changed = true;
        copy[nextKey] = next;
      }
      return changed ? copy : item;
    }
    return item;
  };
  return visit(value);
}
