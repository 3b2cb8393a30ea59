import type {
  CreditsSpent,
  ErrorCode,
  ErrorInit,
  ErrorJson,
  FieldIssue,
  Outcome,
  Sent,
} from './error-fields.js';
import { redactDeep, redactForeignError, redactSecrets } from './redaction.js';

/** Marks the family across copies of the package (a bundled and a hoisted one), like the AI SDK's errors. */
const FAMILY = Symbol.for('toolsteps.error');

const UNKNOWN_OUTCOME_HINT =
  'The request may have reached the provider and taken effect. Check (read or search) before sending it again, or it may be done twice.';

/**
 * The root of the error family. Every field is fixed at construction: an
 * error means the same thing wherever it travels. A layer that learns more
 * (a hint, a replay, what was spent, which secrets to hide) calls one of the
 * `with...` methods and throws the new error it returns.
 */
export class ToolstepsError extends Error {
  override readonly name: string = 'ToolstepsError';
  readonly code: ErrorCode;
  /** Whether sending the same request again can help, and cannot do the work twice. */
  readonly retryable: boolean;
  /** The provider's HTTP status, when it answered. */
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly sent: Sent | undefined;
  readonly outcome: Outcome | undefined;
  readonly hint: string | undefined;
  readonly credits: CreditsSpent | undefined;
  readonly fields: readonly FieldIssue[];
  readonly providerCode: string | undefined;
  readonly providerMessage: string | undefined;
  readonly replayed: boolean;
  readonly context: Readonly<Record<string, unknown>>;
  constructor(code: ErrorCode, message: string, init: ErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = code;
    this.retryable = init.retryable ?? false;
    this.status = init.status;
    this.retryAfterMs = init.retryAfterMs;
    this.sent = init.sent;
    this.outcome = init.outcome;
    this.hint = init.hint;
    this.credits = init.credits;
    this.fields = Object.freeze([...(init.fields ?? [])]);
    this.providerCode = init.providerCode;
    this.providerMessage = init.providerMessage;
    this.replayed = init.replayed ?? false;
    this.context = Object.freeze({ ...init.context });
    Object.defineProperty(this, FAMILY, { value: true });
  }

  /** True for any error of the family, even from another copy of the package. */
  static isInstance(value: unknown): value is ToolstepsError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[FAMILY] === true;
  }

  /**
   * A copy of this error (same class, same stack) with some fields changed.
   * The only place an error field is ever set after construction: on the copy, before anyone sees it.
   */
  with(changes: ErrorInit & { message?: string }): this {
    const copy = Object.create(Object.getPrototypeOf(this)) as this;
    Object.defineProperties(copy, Object.getOwnPropertyDescriptors(this));
    const { cause, context, fields, ...plain } = changes;
    for (const [key, value] of Object.entries(plain)) {
      if (value !== undefined) Object.defineProperty(copy, key, { value, writable: false, enumerable: true });
    }
    if (context !== undefined) {
      Object.defineProperty(copy, 'context', { value: Object.freeze({ ...this.context, ...context }) });
    }
    if (fields !== undefined) Object.defineProperty(copy, 'fields', { value: Object.freeze([...fields]) });
    if ('cause' in changes) {
      Object.defineProperty(copy, 'cause', { value: cause, writable: false, configurable: true });
    }
    return copy;
  }

  /** This error's fields, for a replacement of another class or message that carries them forward. */
  asInit(): ErrorInit {
    return {
      status: this.status,
      retryable: this.retryable,
      retryAfterMs: this.retryAfterMs,
      sent: this.sent,
      outcome: this.outcome,
      hint: this.hint,
      credits: this.credits,
      fields: this.fields,
      providerCode: this.providerCode,
      providerMessage: this.providerMessage,
      replayed: this.replayed,
      context: this.context,
    };
  }

  /** A copy that tells the reader what to do next (reconnect, raise a limit): errors stay immutable, so a layer that knows the remedy adds it to a copy. */
  withHint(hint: string): this {
    return this.with({ hint });
  }

  /** Attaches what the invocation spent before it failed. */
  withCredits(credits: CreditsSpent | undefined): this {
    return credits ? this.with({ credits }) : this;
  }

  /** Records what is known about the write; `unknown` also makes the error final, since a retry could act twice. */
  withOutcome(outcome: Outcome, hint?: string): this {
    return this.with({ outcome, hint, retryable: outcome === 'unknown' ? false : undefined });
  }

  /**
   * A write may have landed: not retryable, outcome `unknown` (unless a layer
   * below already knew better), and a hint to check before sending again.
   */
  asPossiblyApplied(hint = UNKNOWN_OUTCOME_HINT): this {
    return this.with({ outcome: this.outcome ?? 'unknown', hint: this.hint ?? hint, retryable: false });
  }

  /** This error answered a replay sent after an earlier attempt may have landed. */
  asReplayed(): this {
    return this.replayed ? this : this.with({ replayed: true });
  }

  /** A copy with every secret (and its encoded forms) removed from every text it carries. */
  redacted(secrets: readonly (string | undefined)[]): this {
    const scrub = (text: string | undefined) =>
      text === undefined ? undefined : redactSecrets(text, secrets);
    const cause = ToolstepsError.isInstance(this.cause)
      ? this.cause.redacted(secrets)
      : redactForeignError(this.cause, secrets);
    const copy = this.with({
      message: redactSecrets(this.message, secrets),
      hint: scrub(this.hint),
      providerCode: scrub(this.providerCode),
      providerMessage: scrub(this.providerMessage),
      fields: redactDeep(this.fields as FieldIssue[], secrets),
      cause,
    });
    Object.defineProperty(copy, 'context', {
      value: Object.freeze(redactDeep({ ...this.context }, secrets)),
    });
    Object.defineProperty(copy, 'stack', { value: scrub(this.stack), writable: true, configurable: true });
    return copy;
  }

  /** The one shape printed by the CLI's --json, the MCP server and agent exports: every key, null when absent. */
  toJSON(): ErrorJson {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      status: this.status ?? null,
      retryable: this.retryable,
      retry_after_ms: this.retryAfterMs ?? null,
      hint: this.hint ?? null,
      fields: this.fields.length ? this.fields : null,
      credits: this.credits ?? null,
      outcome: this.outcome ?? null,
      sent: this.sent ?? null,
      context: Object.keys(this.context).length ? this.context : null,
    };
  }
}

/**
 * Whether `value` is one of our errors, even one thrown by another copy of
 * the package (a bundled CLI, a second install): `instanceof` would say no to
 * those, this checks the family's brand instead.
 */
export function isToolstepsError(value: unknown): value is ToolstepsError {
  return ToolstepsError.isInstance(value);
}
