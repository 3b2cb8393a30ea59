// One attempt on the wire: its deadline, the body read within its cap, and the outcome as an Exchange.

import {
  isToolstepsError,
  jsonMentionsSecret,
  mentionsSecret,
  ProviderError,
  ResponseTooLargeError,
} from '../errors/index.js';
import type { Clock } from '../model/clock.js';
import { type Logger, silentLogger } from '../model/logger.js';
import type { RateLimitSnapshot } from '../model/rate-limit.js';
import { MAX_JSON_DEPTH, nestingDepthExceeds } from '../values/json-depth.js';
import { startDeadline } from './attempt-deadline.js';
import { isBinaryType } from './binary-type.js';
import { classifyException } from './classify-failures.js';
import { type Exchange, isRedirect, NO_STATS, type Outgoing, type Send } from './exchange.js';
import { RawHeaders } from './raw-headers.js';
import type { Wire, WireAnswer } from './wire.js';

/** Default cap on one answer's body: far above any API answer we read, far below what hurts a process. */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

function tooLarge(where: string, status: number, limitBytes: number): ResponseTooLargeError {
  return new ResponseTooLargeError(
    `${where} answered with more than ${limitBytes} bytes; reading stopped there (raise maxResponseBytes to accept more).`,
    { status, limitBytes },
  );
}

/** Stateless between calls (nothing is streamed through it), so one serves every answer; making one per answer cost more than the rest of the read. */
const utf8 = new TextDecoder();

/** Reads the body as it streams in, refusing it as soon as it passes `limitBytes` (or says it will). */
async function readCapped(answer: WireAnswer, where: string, limitBytes: number): Promise<Uint8Array> {
  const declared = Number(answer.headers.get('content-length') ?? Number.NaN);
  if (declared > limitBytes) {
    await answer.discard();
    throw tooLarge(where, answer.status, limitBytes);
  }
  const raw = await answer.read(limitBytes);
  if (raw === undefined) throw tooLarge(where, answer.status, limitBytes);
  return raw;
}

/**
 * Reads a whole body, at most `maxResponseBytes` of it: parsed JSON when the
 * content type says JSON (text when it does not parse), the bytes of a
 * successful binary answer (or of any successful one, for `asBytes`), else text. JSON nested deeper than any real answer is
 * refused, before anything walks it recursively.
 * `quotesSecret` says whether the text may hold one of `secrets`, checked on
 * the text once instead of on every string of the parsed value.
 */
async function readBody(
  answer: WireAnswer,
  outgoing: Outgoing,
  secrets: readonly string[] = [],
): Promise<{ body: unknown; bytes: number; quotesSecret: boolean }> {
  const raw = await readCapped(answer, outgoing.where, outgoing.maxResponseBytes);
  // A file (an attachment, an image) is handed over as its bytes; decoding it as text would mangle it.
  const ok = answer.status >= 200 && answer.status < 300;
  const binary = raw.byteLength > 0 && isBinaryType(answer.headers.get('content-type'));
  if (ok && (outgoing.asBytes || binary)) {
    // Handed over as is (a step may encode it); its bytes were never read as text, so the output is walked for secrets.
    return { body: raw, bytes: raw.byteLength, quotesSecret: true };
  }
  const where = outgoing.where;
  const text = utf8.decode(raw);
  const bytes = raw.byteLength;
  if (text === '') return { body: null, bytes, quotesSecret: false };
  const type = answer.headers.get('content-type') ?? '';
  if (!type.includes('json')) return { body: text, bytes, quotesSecret: mentionsSecret(text, secrets) };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { body: text, bytes, quotesSecret: mentionsSecret(text, secrets) };
  }
  if (nestingDepthExceeds(body, MAX_JSON_DEPTH)) {
    throw new ProviderError(
      `${where} answered with JSON nested deeper than ${MAX_JSON_DEPTH} levels; not read.`,
      { status: answer.status, sent: true },
    );
  }
  return { body, bytes, quotesSecret: jsonMentionsSecret(text, secrets) };
}

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
  // The dispatcher's headers join their values unsorted, which Headers' iteration would sort first.
  if (headers instanceof RawHeaders) return mentionsSecret(headers.joinedValues(), secrets);
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
    // The invocation's own signal and secrets when the stages serve many (a prepared transport).
    const scope = outgoing.call ?? options;
    const deadline = startDeadline(outgoing.timeoutMs, scope.signal);
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
      const secrets = scope.secrets?.() ?? [];
      let read = { body: null as unknown, bytes: 0, quotesSecret: false };
      if (isRedirect(response.status)) await response.discard();
      // A body cut off mid-way fails here, inside the same classification as the request.
      else read = await readBody(response, outgoing, secrets);
      // The line's fields cost an object and a clock read per attempt: not built for the silent logger.
      if (logger !== silentLogger) {
        logger.debug('response', {
          method: outgoing.method,
          path: outgoing.url.pathname,
          status: response.status,
          durationMs: clock.now() - started,
        });
      }
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
        stats: { attempts: 1, retries: 0, rateLimitWaits: 0, bytes: read.bytes, secretEchoes, answers },
      };
    } catch (thrown) {
      // Our own refusals of the answer (too large, too deep) are already in the family.
      if (isToolstepsError(thrown))
        return { ok: false, error: thrown, stats: { ...NO_STATS, attempts: 1, answers } };
      const signals = { userAborted: Boolean(scope.signal?.aborted), timedOut: deadline.expired };
      // The host is named: behind a proxy or a wrong base URL, which host failed is the first question.
      const where = `${outgoing.where} to ${outgoing.url.host}`;
      const error = classifyException(thrown, where, signals, scope.redact);
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
