import type { VariableMapping } from '../mapping/mapping.js';
import type { Connection } from '../model/connection.js';
import type { RateLimitSnapshot } from '../model/rate-limit.js';
import type { CreditEstimate, ProgressRecords } from '../step/define-step.js';
import type { ReplayDecision } from './settle-replays.js';
import type { SharedCreditBudget } from './shared-credit-budget.js';

/** One call of a step: which connection, what input, and the safety settings (idempotency key, credit budget, signal) a retrying caller needs. */
export interface InvokeOptions {
  /** A connection id in the store, or a connection object. */
  connection: string | Connection;
  input: unknown;
  /** Extra variables, added to (or, with `replaceVariables`, replacing) the step's defaults. */
  variables?: VariableMapping;
  replaceVariables?: boolean;
  /** Most credits this invocation may spend; a call whose worst case is higher is refused before sending. */
  creditBudget?: number;
  signal?: AbortSignal;
  /** Long runs (bulk batches, pages): `done` of `total`, and the records that is when the step can say. */
  onProgress?: (done: number, total: number, records?: ProgressRecords) => void;
  /**
   * Narrows what this invocation may touch, set per step or trigger by the
   * embedder (D: `{ projects: [...] }`). Steps refuse anything outside before sending.
   */
  constraints?: Readonly<Record<string, readonly string[]>>;
  /**
   * A credit budget this invocation shares with others (with a Redis
   * coordinator, on every worker): its worst case is reserved atomically
   * before sending, and what it did not spend is given back.
   */
  sharedCreditBudget?: SharedCreditBudget;
  /**
   * Runs the invocation once per key across every worker sharing the
   * coordinator (bulk retries, a create an agent may send twice): a repeat
   * gets the recorded result, with `meta.fromIdempotencyRecord`.
   */
  idempotencyKey?: string;
  /** How long the record of an idempotency key is kept. Default 24 h. */
  idempotencyTtlMs?: number;
  /** Who runs this invocation, for its audit record; default the runtime's `caller`. */
  caller?: string;
  /** Marks the audit record of a test run (a builder page testing a draft). */
  test?: boolean;
  /**
   * The agent runtime's id of this tool call (the AI SDK's `toolCallId`, an
   * OpenAI `call_id`, an Anthropic `tool_use` id), for the invocation's span
   * (`gen_ai.tool.call.id`, docs/observability.md).
   */
  toolCallId?: string | undefined;
}

/** How the call went, for logs and for agents deciding what to do next: attempts, time, credits, the provider's remaining quota. */
export interface InvocationMeta {
  step: string;
  connection: string;
  attempts: number;
  retries: number;
  durationMs: number;
  credits?: { estimated: CreditEstimate; charged: number | null } | undefined;
  rateLimit?: RateLimitSnapshot | undefined;
  rateLimitWaits: number;
  /**
   * Only when the runtime settled a write that failed after it may have
   * landed: `reconciled` (the step's `reconcile` found the work at the
   * provider) or `already_done` (a 404 answered the replay of an idempotent
   * delete), and the code of the failure it settled. The output is then what
   * that look found, not a fresh answer to the write.
   */
  replay?: ReplayDecision;
  /** True when this result is the recorded one of an earlier invocation with the same idempotency key. */
  fromIdempotencyRecord?: boolean;
  /**
   * Write and destructive steps with an audit trail: `recorded`, or `failed`
   * when the record could not be appended (the result stands; the runtime's
   * `onAuditFailure` heard why).
   */
  audit?: 'recorded' | 'failed';
}

/** What every surface (library, CLI, MCP, builder) answers for one call: the validated output, its mapped variables and the call's meta. */
export interface InvocationResult<Output = unknown> {
  output: Output;
  variables: Record<string, unknown>;
  meta: InvocationMeta;
}
