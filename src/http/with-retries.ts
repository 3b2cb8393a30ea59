import pRetry from 'p-retry';
import type { Clock } from '../clock.js';
import { AbortedError, isToolstepsError } from '../errors/index.js';
import type { Logger } from '../logger.js';
import { mayHaveLanded } from '../step/write-outcome.js';
import { type Answer, addStats, type Exchange, NO_STATS, type Outgoing, type Send } from './exchange.js';
import { decideRetry, type RetryOptions } from './retry-policy.js';

export interface WithRetriesOptions {
  retry: RetryOptions;
  clock: Clock;
  logger: Logger;
  signal?: AbortSignal | undefined;
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
  const { retry, clock, logger, signal } = options;
  return async (outgoing: Outgoing): Promise<Exchange> => {
    let stats = NO_STATS;
    let retries = 0;
    let earlierAttemptMayHaveLanded = false;
    // Most requests succeed at once: the first is sent before p-retry is set up, which costs more than the rest of this stage.
    let first: Exchange | undefined = await send(outgoing);
    if (first.ok) return first;
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
