import * as z from 'zod';
import {
  builtOnce,
  CreditError,
  isToolstepsError,
  type StepContext,
  safeToResend,
  type ToolstepsError,
  writeOutcome,
} from '../../../src/kit/index.js';
import { NO_CREDIT_CODES, NOT_FOUND_CODES, type WireRecordError } from './wire.js';

/**
 * How often a batch the provider provably did not act on (503, or a
 * connection that never opened) is sent again once the transport's own
 * retries are spent, and the first pause before it.
 */
export const BATCH_RESENDS = 2;
const RESEND_BASE_DELAY_MS = 1_000;

export const RecordFailure = builtOnce(() =>
  z
    .object({
      code: z
        .string()
        .describe(
          'Error code: credits_exhausted, rate_limited, provider_error, network_error, missing_in_answer, ...',
        ),
      message: z.string().describe('What went wrong, without secrets.'),
      retryable: z
        .boolean()
        .describe(
          'Whether running this record again can succeed without changing anything; always false when outcome is unknown.',
        ),
      outcome: z
        .enum(['not_sent', 'refused', 'unknown'])
        .describe(
          'not_sent: the record never left this machine; safe to run again. refused: the provider answered that it did not act on it (charged nothing); safe to run again. unknown: the request may have reached the provider and been charged (connection lost, timeout, a 500/502/504, or missing from the answer); check before running it again, or it may be charged twice.',
        ),
    })
    .describe('Why a record failed.'),
);
export type RecordFailure = z.output<ReturnType<typeof RecordFailure>>;

export const RecordStatus = builtOnce(() =>
  z
    .enum(['matched', 'no_match', 'failed'])
    .describe(
      'matched: found (credits charged). no_match: the provider has no such record (free). failed: see error.',
    ),
);

/** What one record came to. */
export interface RecordOutcome<Item> {
  status: z.output<ReturnType<typeof RecordStatus>>;
  item: Item | null;
  /** Credits this record cost, as the provider reported; null when it did not say. */
  credits_charged: number | null;
  error: RecordFailure | null;
}

/**
 * Turns one record of a provider answer into an outcome: found, not found
 * (free), or a record-level error. `credits_charged` is what the record says
 * it cost; a record that does not say stays null (unknown), never 0.
 */
export function recordOutcome<Wire, Item>(
  record: {
    data?: Wire | null;
    error?: z.output<ReturnType<typeof WireRecordError>> | null;
    creditsCharged?: number;
  },
  toItem: (data: Wire) => Item,
): RecordOutcome<Item> {
  const charged = record.creditsCharged ?? null;
  if (record.data)
    return { status: 'matched', item: toItem(record.data), credits_charged: charged, error: null };
  const code = record.error?.code;
  if (code === undefined || NOT_FOUND_CODES.has(code)) {
    return { status: 'no_match', item: null, credits_charged: charged, error: null };
  }
  const credits = NO_CREDIT_CODES.has(code);
  return {
    status: 'failed',
    item: null,
    credits_charged: charged,
    error: {
      code: credits ? 'credits_exhausted' : code,
      message: record.error?.message ?? `The provider answered this record with ${code}.`,
      retryable: false,
      outcome: 'refused',
    },
  };
}

/** Errors that every later batch would meet too: the run stops sending. */
const STOPS_THE_RUN = new Set([
  'credits_exhausted',
  'credit_budget_exceeded',
  'auth_failed',
  'reauthorization_required',
  'plan_required',
  'permission_denied',
  'rate_limited',
  'aborted',
]);

/**
 * What one record's failure means, in the runtime's write-safety vocabulary
 * (`writeOutcome`): a batch whose answer is lost may have been charged.
 */
function failureOf(error: ToolstepsError, outcome = writeOutcome(error)): RecordFailure {
  // A record that may have been charged must not look retryable: running it again may charge twice.
  return {
    code: error.code,
    message: error.message,
    retryable: outcome === 'unknown' ? false : error.retryable,
    outcome,
  };
}

export interface BulkRunOptions<Record, Item> {
  records: readonly Record[];
  batchSize: number;
  concurrency: number;
  context: StepContext;
  /** Sends one batch and returns one outcome per record, in the order given. */
  send(batch: Record[]): Promise<RecordOutcome<Item>[]>;
}

export interface BulkRun<Item> {
  outcomes: RecordOutcome<Item>[];
  batches: number;
  /** Batches sent again after the provider refused them without acting (503) or the connection never opened. */
  resends: number;
  /** Why the run stopped sending early, when it did. */
  stopped: RecordFailure | null;
}

/**
 * Runs records in batches with bounded concurrency and keeps input order.
 *
 * Replay safety: a record is sent again only while it has no outcome, so a
 * re-sent batch never carries a record that already succeeded, and batches
 * that succeeded are never sent twice. Rules, per batch:
 * - 2xx: every record gets its outcome (matched, no_match, or failed inside the record);
 * - 503, or a connection that never opened, after the transport's own retries:
 *   the provider did not act, so the batch's records are sent again, at most
 *   BATCH_RESENDS times, after 1 s then 2 s on the runtime clock; if it still
 *   fails they are `failed` with outcome `refused` (or `not_sent`), safe to run again;
 * - 500, 502, 504, reset connection, timeout, unreadable answer: the provider
 *   may have acted and charged, so `failed` with outcome `unknown`, not
 *   retryable, and never re-sent automatically;
 * - out of credits, auth, plan, rate limit too long to wait: the run stops;
 *   the batch's records and every batch not yet sent are `failed` (`not_sent`
 *   for those never sent). When no batch was answered at all the error is
 *   thrown instead, so a caller sees a typed CreditError, AuthError, ...
 */
export async function runInBatches<Record, Item>(
  options: BulkRunOptions<Record, Item>,
): Promise<BulkRun<Item>> {
  const { records, context } = options;
  const queue = batchesOf(records.length, options.batchSize);
  const batches = queue.length;
  const run = new BatchRun(options);
  let done = 0;
  let recordsDone = 0;
  const worker = async (once = false): Promise<void> => {
    for (let batch = queue.shift(); batch; batch = once ? undefined : queue.shift()) {
      await run.runBatch(batch);
      done += 1;
      recordsDone += batch.length;
      context.progress(done, batches, { done: recordsDone, total: records.length });
    }
  };

  context.progress(0, batches, { done: 0, total: records.length });
  // The first batch goes alone: its answer tells the rate gate the quota
  // before batches run in parallel, instead of a burst learning it from 429s.
  await worker(true);
  await Promise.all(Array.from({ length: Math.min(options.concurrency, queue.length) }, () => worker()));
  return run.result(batches);
}

/** The indexes `0..count-1` in batches of at most `size`, in order. */
function batchesOf(count: number, size: number): number[][] {
  const queue: number[][] = [];
  for (let start = 0; start < count; start += size) {
    queue.push(Array.from({ length: Math.min(size, count - start) }, (_, k) => start + k));
  }
  return queue;
}

/**
 * One bulk run's state, shared by its concurrent batches: each record's
 * outcome so far, how many batches were answered and re-sent, and the error
 * that stops the run.
 */
class BatchRun<Record, Item> {
  private readonly outcomes: (RecordOutcome<Item> | undefined)[];
  private answered = 0;
  private resends = 0;
  private stop: ToolstepsError | undefined;
  private firstError: ToolstepsError | undefined;

  constructor(private readonly options: BulkRunOptions<Record, Item>) {
    this.outcomes = new Array(options.records.length);
  }

  /** Sends the batch's records that have no outcome yet, again while the provider provably did not act. */
  async runBatch(indexes: number[]): Promise<void> {
    for (let resend = 0; ; resend += 1) {
      const pending = indexes.filter((index) => this.outcomes[index] === undefined);
      if (pending.length === 0) return;
      if (this.stop) return this.fail(pending, failureOf(this.stop, 'not_sent'));
      try {
        const results = await this.options.send(pending.map((index) => this.options.records[index]!));
        return this.keepAnswer(pending, results);
      } catch (error) {
        if (!isToolstepsError(error)) throw error;
        if ((await this.settleFailure(error, pending, resend)) === 'settled') return;
      }
    }
  }

  /** Records an answered batch's outcomes; a record out of credits stops the batches after it. */
  private keepAnswer(pending: number[], results: RecordOutcome<Item>[]): void {
    this.answered += 1;
    results.forEach((outcome, k) => {
      this.outcomes[pending[k]!] = outcome;
    });
    if (!this.stop && results.some((outcome) => outcome.error?.code === 'credits_exhausted')) {
      this.stop = new CreditError(
        'The account ran out of credits during the bulk run; later batches were not sent.',
      );
    }
  }

  /**
   * A failed send: stops the run, or waits to send the batch again when the
   * provider provably did not act (`resend`), or fails the batch's records.
   */
  private async settleFailure(
    error: ToolstepsError,
    pending: number[],
    resend: number,
  ): Promise<'resend' | 'settled'> {
    this.firstError ??= error;
    if (STOPS_THE_RUN.has(error.code)) {
      this.stop ??= error;
      this.fail(pending, failureOf(error));
      return 'settled';
    }
    if (safeToResend(error) && resend < BATCH_RESENDS) {
      this.resends += 1;
      const delayMs = RESEND_BASE_DELAY_MS * 2 ** resend;
      this.options.context.log.info('re-sending a bulk batch the provider did not act on', {
        records: pending.length,
        code: error.code,
        status: error.status,
        delayMs,
      });
      await this.options.context.sleep(delayMs);
      return 'resend';
    }
    this.fail(pending, failureOf(error));
    return 'settled';
  }

  /** Fails the records that have no outcome yet. */
  private fail(indexes: number[], failure: RecordFailure): void {
    // Nothing was charged for a record not sent or refused; for an unknown outcome the charge is unknown too.
    const charged = failure.outcome === 'unknown' ? null : 0;
    for (const index of indexes)
      this.outcomes[index] ??= { status: 'failed', item: null, credits_charged: charged, error: failure };
  }

  /** The run's answer; an aborted run, or one with no batch answered, throws its error instead. */
  result(batches: number): BulkRun<Item> {
    const halted = this.stop;
    if (halted?.code === 'aborted') throw halted;
    if (this.answered === 0 && (halted ?? this.firstError)) throw halted ?? this.firstError;
    return {
      outcomes: this.outcomes as RecordOutcome<Item>[],
      batches,
      resends: this.resends,
      stopped: halted ? failureOf(halted, 'not_sent') : null,
    };
  }
}
