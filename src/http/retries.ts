// The retry rules in one place: which failures are sent again and after how long (decideRetry,
// parseRetryAfter), and the stage that does it (withRetries).
import pRetry from 'p-retry';
import { AbortedError, isToolstepsError, RateLimitError, type ToolstepsError } from '../errors/index.js';
import type { Clock } from '../model/clock.js';
import type { Logger } from '../model/logger.js';
import { mayHaveLanded } from '../model/write-outcome.js';
import { type Answer, addStats, type Exchange, NO_STATS, type Outgoing, type Send } from './exchange.js';
import { noteRetry } from './transport-telemetry.js';

/** How hard the transport retries; the defaults suit interactive calls, a batch job may allow longer waits. */
export interface RetryOptions {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Longest `Retry-After` we wait for; a longer one fails at once. */
  maxRetryAfterMs: number;
  /** First backoff delay; each retry doubles it, with jitter. */
  baseDelayMs: number;
  /** Cap on one backoff delay. */
  maxDelayMs: number;
  /** The jitter's source in [0, 1); tests pass a fixed one so delays are predictable. */
  random: () => number;
}

export const defaultRetryOptions: RetryOptions = {
  maxRetries: 3,
  maxRetryAfterMs: 60_000,
  baseDelayMs: 500,
  maxDelayMs: 15_000,
  random: Math.random,
};

export type RetryDecision = { retry: false } | { retry: true; delayMs: number };

/** Exponential backoff with "equal jitter": half fixed, half random, so parallel callers spread out. */
export function backoffDelay(retryNumber: number, options: RetryOptions): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (retryNumber - 1));
  return Math.round(ceiling / 2 + options.random() * (ceiling / 2));
}

/**
 * The retry rules, in one place:
 * - 429 and 503 wait for Retry-After when given (capped), else back off; a 503
 *   without Retry-After on a non-idempotent request is final;
 * - 500/502/504, 408, timeouts and network failures are retried only when the
 *   request is idempotent, or when it provably never left this machine;
 * - every other status is final (401 is handled by the refresh step instead).
 */
export function decideRetry(
  error: ToolstepsError,
  retryNumber: number,
  idempotent: boolean,
  options: RetryOptions,
): RetryDecision {
  const throttled = error.code === 'rate_limited' || error.status === 503;
  if (throttled) {
    const retryAfterMs = error.retryAfterMs;
    if (retryAfterMs !== undefined && retryAfterMs > options.maxRetryAfterMs) {
      throw new RateLimitError(
        `${error.message} The provider asks to wait ${Math.ceil(retryAfterMs / 1000)} s, longer than the ${Math.ceil(options.maxRetryAfterMs / 1000)} s cap; not waiting.`,
        { ...error.asInit(), retryable: true },
      );
    }
    // A 503 without Retry-After may come from a proxy that passed the request on:
    // for a write, it proves nothing about whether the provider acted.
    if (error.status === 503 && retryAfterMs === undefined && !idempotent) return { retry: false };
    return { retry: true, delayMs: retryAfterMs ?? backoffDelay(retryNumber, options) };
  }
  const transient =
    error.code === 'network_error' ||
    error.code === 'timeout' ||
    (error.code === 'provider_error' && error.status !== undefined && [500, 502, 504].includes(error.status));
  if (!transient) return { retry: false };
  const neverSent = error.sent === false;
  if (!idempotent && !neverSent) return { retry: false };
  return { retry: true, delayMs: backoffDelay(retryNumber, options) };
}

/** delay-seconds; a fraction is read as seconds too, since some providers send one. */
const SECONDS = /^\d+(?:\.\d+)?$/;
/** Each of the three HTTP-date forms (RFC 9110 §5.6.7) starts with a day name. */
const HTTP_DATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /;

/**
 * Parses `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date.
 * Returns milliseconds from `now`, or undefined when absent or unreadable.
 * Only a value shaped like an HTTP-date is read as a date: `Date.parse`
 * takes `-1` and `1.5` for years and months, which would make a wait of 0.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (SECONDS.test(trimmed)) return Math.ceil(Number(trimmed) * 1000);
  if (!HTTP_DATE.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

export interface WithRetriesOptions {
  retry: RetryOptions;
  clock: Clock;
  logger: Logger;
  signal?: AbortSignal | undefined;
  /** Whose requests these are, for the retry's event and metric. */
  integration?: { id: string } | undefined;
}

/** The error a request finally fails with: a write that may have landed says so and is not retryable. */
function finalError(error: unknown, outgoing: Outgoing, signal: AbortSignal | undefined): unknown {
  if (isToolstepsError(error))
    return !outgoing.idempotent && mayHaveLanded(error) ? error.asPossiblyApplied() : error;
  if (signal?.aborted) return new AbortedError(`${outgoing.where} was aborted by the caller.`);
  return error;
}

/**
 * Sends again what `decideRetry` (the retry rules, in one place) allows,
 * waiting on the injectable clock. An error that answers a replay sent after
 * an attempt which may have landed is marked `replayed`, so a step can read a
 * 404 on a replayed DELETE as "already done".
 */
export function withRetries(send: Send, options: WithRetriesOptions): Send {
  const { retry, clock, logger } = options;
  return async (outgoing: Outgoing): Promise<Exchange> => {
    let stats = NO_STATS;
    let retries = 0;
    let earlierAttemptMayHaveLanded = false;
    // Most requests succeed at once: the first is sent before p-retry is set up, which costs more than the rest of this stage.
    let first: Exchange | undefined = await send(outgoing);
    if (first.ok) return first;
    const signal = outgoing.call ? outgoing.call.signal : options.signal;
    const once = async (): Promise<Answer> => {
      const result = first ?? (await send(outgoing));
      first = undefined;
      stats = addStats(stats, result.stats);
      if (result.ok) return result.answer;
      const seen =
        earlierAttemptMayHaveLanded && isToolstepsError(result.error)
          ? result.error.asReplayed()
          : result.error;
      if (mayHaveLanded(seen)) earlierAttemptMayHaveLanded = true;
      throw seen;
    };
    try {
      const answer = await pRetry(once, {
        retries: retry.maxRetries,
        // p-retry counts attempts; the waiting is ours, on the injectable clock, so tests never sleep.
        minTimeout: 0,
        factor: 1,
        ...(signal ? { signal } : {}),
        shouldRetry: async ({ error, retriesConsumed }) => {
          if (!isToolstepsError(error)) return false;
          const decision = decideRetry(error, retriesConsumed + 1, outgoing.idempotent, retry);
          if (!decision.retry) return false;
          logger.info('retrying', {
            method: outgoing.method,
            path: outgoing.path,
            code: error.code,
            status: error.status,
            delayMs: decision.delayMs,
          });
          retries += 1;
          noteRetry(options.integration?.id ?? 'unknown', error, retries, decision.delayMs);
          await clock.sleep(decision.delayMs, signal);
          return true;
        },
      });
      return { ok: true, answer, stats: addStats(stats, { retries }) };
    } catch (error) {
      return { ok: false, error: finalError(error, outgoing, signal), stats: addStats(stats, { retries }) };
    }
  };
}
