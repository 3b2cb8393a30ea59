import type { Clock } from '../clock.js';
import { isToolstepsError, mentionsSecret } from '../errors/index.js';
import type { Logger } from '../logger.js';
import { startDeadline } from './attempt-deadline.js';
import { classifyException } from './classify-exception.js';
import { type Exchange, isRedirect, NO_STATS, type Outgoing, type Send } from './exchange.js';
import type { RateLimitSnapshot } from './rate-limit.js';
import { readBody } from './read-body.js';
import type { Wire } from './wire.js';

export interface AttemptOptions {
  /** How bytes reach the provider: `dispatcherWire`, `fetchWire` or `nodeHttpWire`. */
  wire: Wire;
  clock: Clock;
  logger: Logger;
  /** The caller's signal: aborting it stops the fetch as `aborted`, not as a timeout. */
  signal?: AbortSignal | undefined;
  /** Reads the provider's rate-limit headers from an answer. */
  readRateLimit?: ((headers: Headers, now: number) => RateLimitSnapshot | undefined) | undefined;
  /** Removes the connection's secrets from text that may quote them (an exception's message). */
  redact: (text: string) => string;
  /** Every secret the connection has held, to tell whether an answer quotes one. */
  secrets?: (() => string[]) | undefined;
}

/**
 * A step may copy a header (a Location, say) into its output, so headers
 * count as the answer too. One check over all values joined: a match across
 * two values only costs a needless redaction walk, never a missed secret.
 */
function headersQuoteSecret(headers: Headers, secrets: string[]): boolean {
  if (secrets.length === 0) return false;
  let values = '';
  headers.forEach((value) => {
    values += `${value}\n`;
  });
  return mentionsSecret(values, secrets);
}

/**
 * One request, with its own time limit, never following a redirect itself.
 * Whatever happens comes back as an `Exchange`: the answer with its body read
 * (a redirect's body is discarded), or the failure classified into the error
 * family, with one attempt counted either way.
 */
export function attempt(options: AttemptOptions): Send {
  const { clock, logger } = options;
  return async (outgoing: Outgoing): Promise<Exchange> => {
    const deadline = startDeadline(outgoing.timeoutMs, options.signal);
    const started = clock.now();
    const answers: (RateLimitSnapshot | undefined)[] = [];
    try {
      const response = await options.wire({
        url: outgoing.url,
        method: outgoing.method,
        headers: { ...outgoing.headers, ...outgoing.credentials },
        body: outgoing.body,
        cancellation: deadline.cancellation,
      });
      answers.push(options.readRateLimit?.(response.headers, clock.now()));
      const secrets = options.secrets?.() ?? [];
      let read = { body: null as unknown, bytes: 0, quotesSecret: false };
      if (isRedirect(response.status)) await response.discard();
      // A body cut off mid-way fails here, inside the same classification as the request.
      else read = await readBody(response, outgoing.where, outgoing.maxResponseBytes, secrets);
      logger.debug('response', {
        method: outgoing.method,
        path: outgoing.url.pathname,
        status: response.status,
        durationMs: clock.now() - started,
      });
      const answer = {
        status: response.status,
        headers: response.headers,
        body: read.body,
        method: outgoing.method,
        redirected: false,
      };
      const secretEchoes = read.quotesSecret || headersQuoteSecret(response.headers, secrets) ? 1 : 0;
      return {
        ok: true,
        answer,
        stats: { ...NO_STATS, attempts: 1, bytes: read.bytes, secretEchoes, answers },
      };
    } catch (thrown) {
      // Our own refusals of the answer (too large, too deep) are already in the family.
      if (isToolstepsError(thrown))
        return { ok: false, error: thrown, stats: { ...NO_STATS, attempts: 1, answers } };
      const signals = { userAborted: Boolean(options.signal?.aborted), timedOut: deadline.expired };
      // The host is named: behind a proxy or a wrong base URL, which host failed is the first question.
      const where = `${outgoing.where} to ${outgoing.url.host}`;
      const error = classifyException(thrown, where, signals, options.redact);
      logger.debug('request failed', {
        method: outgoing.method,
        path: outgoing.url.pathname,
        code: error.code,
      });
      return { ok: false, error, stats: { ...NO_STATS, attempts: 1, answers } };
    } finally {
      deadline.clear();
    }
  };
}
