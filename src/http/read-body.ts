import { jsonMentionsSecret, mentionsSecret, ProviderError, ResponseTooLargeError } from '../errors.js';
import { MAX_JSON_DEPTH, nestingDepthExceeds } from '../json-depth.js';

/** Default cap on one answer's body: far above any API answer we read, far below what hurts a process. */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

function tooLarge(where: string, status: number, limitBytes: number): ResponseTooLargeError {
  return new ResponseTooLargeError(
    `${where} answered with more than ${limitBytes} bytes; reading stopped there (raise maxResponseBytes to accept more).`,
    { status, limitBytes },
  );
}

/** Reads the body as a stream, refusing it as soon as it passes `limitBytes` (or says it will). */
async function readCapped(response: Response, where: string, limitBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > limitBytes) {
    await response.body?.cancel();
    throw tooLarge(where, response.status, limitBytes);
  }
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (let part = await reader.read(); !part.done; part = await reader.read()) {
    bytes += part.value.byteLength;
    if (bytes > limitBytes) {
      await reader.cancel();
      throw tooLarge(where, response.status, limitBytes);
    }
    chunks.push(part.value);
  }
  return Buffer.concat(chunks);
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
  response: Response,
  where: string,
  limitBytes: number,
  secrets: readonly string[] = [],
): Promise<{ body: unknown; bytes: number; quotesSecret: boolean }> {
  const raw = await readCapped(response, where, limitBytes);
  // A file (an attachment, an image) is handed over as its bytes; decoding it as text would mangle it.
  if (response.ok && raw.byteLength > 0 && isBinaryType(response.headers.get('content-type'))) {
    // Handed over as is (a step may encode it): walked for secrets as every output once was.
    return { body: raw, bytes: raw.byteLength, quotesSecret: true };
  }
  const text = new TextDecoder().decode(raw);
  const bytes = raw.byteLength;
  if (text === '') return { body: null, bytes, quotesSecret: false };
  const type = response.headers.get('content-type') ?? '';
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
        status: response.status,
        sent: true,
      },
    );
  }
  return { body, bytes, quotesSecret: jsonMentionsSecret(text, secrets) };
}
