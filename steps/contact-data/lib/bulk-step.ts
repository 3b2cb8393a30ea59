import * as z from 'zod';
import { builtOnce, readAnswer, type StepContext } from '../../../src/kit/index.js';
import {
  RecordFailure,
  type RecordOutcome,
  RecordStatus,
  recordOutcome,
  runInBatches,
} from './bulk-runner.js';
import type { LookupKind } from './lookup-kind.js';
import { BULK_MAX_RECORDS } from './paths.js';
import { type WireRecord, wireBulk } from './wire.js';

/** Most records one bulk invocation takes; larger lists are split over several invocations. */
export const BULK_RUN_MAX_RECORDS = 10_000;

/**
 * The limit as step descriptions show it ("10,000"). Grouped by hand, not with
 * toLocaleString, which loads ICU data while the catalogue is built: tens of
 * milliseconds on every start of the CLI.
 */
export const BULK_RUN_MAX_RECORDS_TEXT = String(BULK_RUN_MAX_RECORDS).replace(/\B(?=(\d{3})+$)/g, ',');

/** The input fields every bulk step shares besides its records. */
export const bulkOptions = builtOnce(() => ({
  batch_size: z
    .number()
    .int()
    .min(1)
    .max(BULK_MAX_RECORDS)
    .default(BULK_MAX_RECORDS)
    .describe(
      `Records per provider request, 1 to ${BULK_MAX_RECORDS} (the provider's cap). Default ${BULK_MAX_RECORDS}.`,
    ),
  concurrency: z
    .number()
    .int()
    .min(1)
    .max(5)
    .default(3)
    .describe('Batches in flight at once, 1 to 5. Default 3. The rate gate still paces every request.'),
}));

/**
 * The input of a bulk step: its records under `list`, 1 to
 * BULK_RUN_MAX_RECORDS of them, and the batch options.
 */
export function bulkInput<List extends string, Lookup extends z.ZodType>(
  list: List,
  lookup: Lookup,
  words: { records: string; each: string },
) {
  // A computed key is typed as any string; the cast names the one field it is.
  const records = {
    [list]: z
      .array(lookup)
      .min(1)
      .max(BULK_RUN_MAX_RECORDS)
      .describe(`${words.records} to enrich, 1 to ${BULK_RUN_MAX_RECORDS_TEXT}; ${words.each}.`),
  } as Record<List, z.ZodArray<Lookup>>;
  return z.strictObject({ ...records, ...bulkOptions() });
}

/** The output of a bulk step: per-record results in input order, and a summary. */
export function bulkOutput<
  Key extends 'contact' | 'company',
  Input extends z.ZodType,
  Item extends z.ZodType,
>(itemKey: Key, input: Input, item: Item) {
  const result = z.object({
    index: z.number().int().describe('Position of the record in the input, from 0.'),
    input: input.describe('The record as given.'),
    status: RecordStatus(),
    credits_charged: z
      .number()
      .nullable()
      .describe('Credits this record cost, as the provider reported; null when it did not say.'),
    error: RecordFailure().nullable(),
  });
  return z.object({
    results: z
      .array(
        result.extend({
          [itemKey]: item.nullable().describe(`The ${itemKey} when matched; null otherwise.`),
        } as Record<Key, z.ZodNullable<Item>>),
      )
      .describe('One result per input record, in input order.'),
    summary: z
      .object({
        records: z.number().int().describe('Records given.'),
        matched: z.number().int().describe('Records found (charged).'),
        no_match: z.number().int().describe('Records the provider has no data for (free).'),
        failed: z
          .number()
          .int()
          .describe('Records that failed; see their error, retry_indexes and unknown_indexes.'),
        credits_charged: z
          .number()
          .nullable()
          .describe(
            'Credits the provider reported charging for the whole run; null when it did not say. Records with outcome unknown may have been charged on top of it.',
          ),
        batches: z.number().int().describe('Provider requests the records were split into.'),
        batches_resent: z
          .number()
          .int()
          .describe(
            'Batches sent again because the provider provably did not act on them (503, or a connection that never opened).',
          ),
      })
      .describe('Counts over the whole run.'),
    complete: z.boolean().describe('True when no record failed.'),
    stopped: RecordFailure()
      .nullable()
      .describe(
        'Why the run stopped sending early (out of credits, rate limit, ...); null when it ran to the end.',
      ),
    retry_indexes: z
      .array(z.number().int())
      .describe(
        'Input positions of failed records that nothing was charged for (outcome not_sent or refused): safe to run again; pass exactly these records. Those whose error is not retryable (out of credits, say) need that fixed first.',
      ),
    unknown_indexes: z
      .array(z.number().int())
      .describe(
        'Input positions of failed records with outcome unknown: the provider may have processed and charged them. Check (for example the account usage) before running them again, or they may be charged twice.',
      ),
  });
}

export interface BulkLookup<Key extends string, Lookup, WireData, Item> {
  context: StepContext;
  itemKey: Key;
  records: Lookup[];
  batchSize: number;
  concurrency: number;
  path: string;
  kind: LookupKind<Lookup, WireData, Item>;
}

/**
 * Sends one batch and turns the answer into one outcome per record,
 * matching by the `index` the provider echoes (else by position). A record
 * missing from the answer fails with outcome `unknown`: the provider may
 * have charged for it, so it is not retryable.
 */
async function sendBatch<Lookup, WireData, Item>(
  options: BulkLookup<string, Lookup, WireData, Item>,
  batch: Lookup[],
): Promise<RecordOutcome<Item>[]> {
  const { context, path, kind } = options;
  const response = await context.http.request({ method: 'POST', path, body: batch.map(kind.toWire) });
  const answer = readAnswer(wireBulk(kind.wire), response.body, `POST ${path}`) as {
    results: WireRecord<WireData>[];
  };
  if (answer.results.some((record) => record.creditsCharged !== undefined)) {
    context.reportCredits(answer.results.reduce((sum, record) => sum + (record.creditsCharged ?? 0), 0));
  }
  const byIndex = new Map(answer.results.map((record, position) => [record.index ?? position, record]));
  return batch.map((_, index): RecordOutcome<Item> => {
    const record = byIndex.get(index);
    if (record) return recordOutcome(record, kind.fromWire);
    return {
      status: 'failed',
      item: null,
      credits_charged: null,
      error: {
        code: 'missing_in_answer',
        message: `POST ${path} answered without this record; it may have been charged.`,
        retryable: false,
        outcome: 'unknown',
      },
    };
  });
}

/** Runs a bulk lookup and shapes its output (see `runInBatches` for the batch and re-send rules). */
export async function runBulkLookup<Key extends string, Lookup, WireData, Item>(
  options: BulkLookup<Key, Lookup, WireData, Item>,
) {
  const run = await runInBatches({
    records: options.records,
    batchSize: options.batchSize,
    concurrency: options.concurrency,
    context: options.context,
    send: (batch) => sendBatch(options, batch),
  });
  const results = run.outcomes.map(
    (outcome, index) =>
      ({
        index,
        input: options.records[index]!,
        status: outcome.status,
        [options.itemKey]: outcome.item,
        credits_charged: outcome.credits_charged,
        error: outcome.error,
      }) as {
        index: number;
        input: Lookup;
        status: RecordOutcome<Item>['status'];
        credits_charged: number | null;
        error: RecordOutcome<Item>['error'];
      } & Record<Key, Item | null>,
  );
  const count = (status: RecordOutcome<Item>['status']) =>
    run.outcomes.filter((outcome) => outcome.status === status).length;
  const reported = run.outcomes.filter((outcome) => outcome.credits_charged !== null);
  const indexesWhere = (test: (outcome: RecordOutcome<Item>) => boolean) =>
    run.outcomes.flatMap((outcome, index) => (test(outcome) ? [index] : []));
  const failed = indexesWhere((outcome) => outcome.status === 'failed');
  const unknownIndexes = indexesWhere((outcome) => outcome.error?.outcome === 'unknown');
  const retryIndexes = indexesWhere(
    (outcome) => outcome.status === 'failed' && outcome.error?.outcome !== 'unknown',
  );
  return {
    results,
    summary: {
      records: options.records.length,
      matched: count('matched'),
      no_match: count('no_match'),
      failed: failed.length,
      credits_charged: reported.length
        ? reported.reduce((sum, outcome) => sum + (outcome.credits_charged ?? 0), 0)
        : null,
      batches: run.batches,
      batches_resent: run.resends,
    },
    complete: failed.length === 0,
    stopped: run.stopped,
    retry_indexes: retryIndexes,
    unknown_indexes: unknownIndexes,
  };
}

/**
 * The variables every bulk step maps by default: the matched items (under
 * `list`), the summary counts, and the indexes to send again or to check.
 */
export function bulkVariables(list: string, itemKey: string): Record<string, string> {
  return {
    [list]: `$.results[?@.status == 'matched'].${itemKey}`,
    matched: '$.summary.matched',
    failed: '$.summary.failed',
    credits_charged: '$.summary.credits_charged',
    retry_indexes: '$.retry_indexes',
    unknown_indexes: '$.unknown_indexes',
  };
}
