/**
 * The vocabulary every error of the family shares. Each name is a readonly
 * field of `ToolstepsError`, set once at construction; a layer that learns
 * more makes a new error (see `ToolstepsError.with`).
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
  | 'tenant_limit_exceeded'
  | 'plan_required'
  | 'partial_failure'
  | 'response_too_large'
  | 'possibly_applied'
  | 'encryption_key_invalid'
  | 'token_key_invalid'
  | 'record_tampered'
  | 'storage_unavailable'
  | 'schema_outdated';

/** One failing input field, by path, so a form can mark the field and a model can fix just that value. */
export interface FieldIssue {
  /** Dotted path of the failing field, e.g. `ticket.subject` or `people.3.email`. */
  readonly path: string;
  readonly message: string;
}

/**
 * What is known about a write when a call failed. One vocabulary for every
 * integration, so an agent can act on it:
 * - `unknown`: the request may have reached the provider and acted; check
 *   before sending it again (the error is then not `retryable`);
 * - `not_sent`: nothing left this machine; safe to send again;
 * - `refused`: the provider answered and did not act;
 * - `not_created`: checked after an ambiguous failure: nothing was created;
 * - `already_done`: the work was done (by our earlier attempt, or the answer was unreadable).
 */
export type Outcome = 'unknown' | 'not_sent' | 'refused' | 'not_created' | 'already_done';

/**
 * Whether the request's bytes may have reached the provider: `false` when
 * provably nothing left this machine, `true` when the provider answered,
 * `'unknown'` when the connection broke in between.
 */
export type Sent = boolean | 'unknown';

/** Best and worst case cost in provider credits (the same shape as a step's `CreditEstimate`). */
export interface CreditRange {
  readonly min: number;
  readonly max: number;
}

/** What an invocation spent before it failed. */
export interface CreditsSpent {
  readonly estimated: CreditRange;
  /** What the provider reported as charged; null when it did not say. */
  readonly charged: number | null;
}

/** Everything an error can be constructed with; every field is optional and read-only afterwards. */
export interface ErrorInit {
  status?: number | undefined;
  retryable?: boolean | undefined;
  /** How long the provider asked us to wait (429, or 503 with Retry-After). */
  retryAfterMs?: number | undefined;
  sent?: Sent | undefined;
  outcome?: Outcome | undefined;
  /** What the caller (a person or an agent) should do next. */
  hint?: string | undefined;
  credits?: CreditsSpent | undefined;
  /** The failing fields: of the input (InputError), the answer (OutputError), or as the provider named them. */
  fields?: readonly FieldIssue[] | undefined;
  /** The provider's own error code and words, already redacted. */
  providerCode?: string | undefined;
  providerMessage?: string | undefined;
  /** This error answered a replay made after an earlier attempt may have landed. */
  replayed?: boolean | undefined;
  /**
   * Facts a caller may want beside the message (a deployment's `state`, the
   * `allowedProjects` of a refusal). Descriptive only: no layer branches on them.
   */
  context?: Readonly<Record<string, unknown>> | undefined;
  cause?: unknown;
}

/** The one JSON shape of every error: what the CLI's --json, the MCP server and agent exports print. */
export interface ErrorJson {
  name: string;
  code: ErrorCode;
  message: string;
  status: number | null;
  retryable: boolean;
  retry_after_ms: number | null;
  hint: string | null;
  fields: readonly FieldIssue[] | null;
  credits: CreditsSpent | null;
  outcome: Outcome | null;
  sent: Sent | null;
  context: Readonly<Record<string, unknown>> | null;
}
