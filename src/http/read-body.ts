import { jsonMentionsSecret, mentionsSecret, ProviderError, ResponseTooLargeError } from '../errors/index.js';
import { MAX_JSON_DEPTH, nestingDepthExceeds } from '../values/json-depth.js';
import type { WireAnswer } from './wire.js';

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

/** A media type that is not JSON or text: images, PDFs, archives, `application/octet-stream`. */
export function isBinaryType(contentType: string | null): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return !/^text\/|json|xml|javascript|x-www-form-urlencoded/.test(type);
}

/**
 * Reads a whole body, at most `limitBytes` of it: parsed JSON when the content
 * type says JSON (text when it does not parse), the bytes of a successful
 * binary answer, else text. JSON nested deeper
 * than any real answer is refused, before anything walks it recursively.
 * `quotesSecret` says whether the text may hold one of `secrets`, checked on
 * the text once instead of on every string of the parsed value.
 */
export async function readBody(
  answer: WireAnswer,
  where: string,
  limitBytes: number,
  secrets: readonly string[] = [],
): Promise<{ body: unknown; bytes: number; quotesSecret: boolean }> {
  const raw = await readCapped(answer, where, limitBytes);
  // A file (an attachment, an image) is handed over as its bytes; decoding it as text would mangle it.
  const ok = answer.status >= 200 && answer.status < 300;
  if (ok && raw.byteLength > 0 && isBinaryType(answer.headers.get('content-type'))) {
    // Handed over as is (a step may encode it): walked for secrets as every output once was.
    return { body: raw, bytes: raw.byteLength, quotesSecret: true };
  }
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
      {
        status: answer.status,
        sent: true,
      },
    );
  }
  return { body, bytes, quotesSecret: jsonMentionsSecret(text, secrets) };
}
