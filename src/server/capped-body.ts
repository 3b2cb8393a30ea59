import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

/** A request body as a server hands it over: chunks as they arrive, or bytes already whole. */
export type BodySource = AsyncIterable<Uint8Array> | Uint8Array;

/**
 * A body past its server's limit (declared, or read so far). Each server
 * answers it in its own words (413 with its own code); the reader only says
 * that the limit was passed, and stopped reading there.
 */
export class BodyTooLarge extends Error {
  override readonly name = 'BodyTooLarge';
  readonly status = 413;
  constructor(readonly limit: number) {
    super(`The body is larger than ${limit} bytes; it was not read.`);
  }
}

/** A body that had not arrived whole when its deadline (the reader's signal) came. */
export class BodyTimedOut extends Error {
  override readonly name = 'BodyTimedOut';
  readonly status = 408;
  constructor() {
    super('The request body did not arrive in time.');
  }
}

/** The `content-length` a request declares, when it is a plain number; anything else declares nothing. */
export function declaredLength(headers: Headers | IncomingHttpHeaders): number | undefined {
  const value = headers instanceof Headers ? headers.get('content-length') : headers['content-length'];
  return value && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** A declared length over the limit is refused before anything else is done with the request. */
export function checkDeclaredLength(declared: number | undefined, limit: number): void {
  if (declared !== undefined && declared > limit) throw new BodyTooLarge(limit);
}

/**
 * A Node request's body as chunks, without handing the stream's own iterator
 * to the reader: a `for await` that stops early (413) would destroy the
 * socket through it, and the sender would see a reset instead of the answer.
 */
export function requestChunks(request: IncomingMessage): AsyncIterable<Uint8Array> {
  const iterator = request[Symbol.asyncIterator]();
  return { [Symbol.asyncIterator]: () => ({ next: () => iterator.next() }) };
}

/** The next chunk, or BodyTimedOut as soon as `signal` aborts. */
function nextChunk(
  iterator: AsyncIterator<Uint8Array>,
  signal: AbortSignal | undefined,
): Promise<IteratorResult<Uint8Array>> {
  if (!signal) return iterator.next();
  if (signal.aborted) return Promise.reject(new BodyTimedOut());
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new BodyTimedOut());
    signal.addEventListener('abort', onAbort, { once: true });
    iterator.next().then(
      (result) => {
        signal.removeEventListener('abort', onAbort);
        resolve(result);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

export interface CappedBodyOptions {
  /** The most bytes read; past it, BodyTooLarge. */
  limit: number;
  /** What the request declared (`declaredLength`): over the limit, refused before a byte is read. */
  declared?: number | undefined;
  /** Aborts the read with BodyTimedOut: the body's deadline. */
  signal?: AbortSignal | undefined;
}

/**
 * The one capped body reader of our servers. Hands each chunk to `take` as
 * it arrives and refuses with BodyTooLarge as soon as the declared length or
 * the bytes read pass the limit: an oversized body is never held whole,
 * parsed or verified. What `take` keeps is its own choice, so a body nobody
 * can use (the intake's unknown hook) passes through without being held.
 * Returns the bytes read.
 */
export async function consumeCappedBody(
  body: BodySource,
  options: CappedBodyOptions,
  take: (chunk: Uint8Array) => void,
): Promise<number> {
  const { limit, declared, signal } = options;
  checkDeclaredLength(declared, limit);
  if (body instanceof Uint8Array) {
    if (body.byteLength > limit) throw new BodyTooLarge(limit);
    take(body);
    return body.byteLength;
  }
  const iterator = body[Symbol.asyncIterator]();
  let total = 0;
  for (;;) {
    const { done, value } = await nextChunk(iterator, signal);
    if (done) return total;
    total += value.byteLength;
    if (total > limit) throw new BodyTooLarge(limit);
    take(value);
  }
}

/** The raw body, held whole within the limit: for a signature over every byte, or JSON to parse. */
export async function readCappedBody(body: BodySource, options: CappedBodyOptions): Promise<Uint8Array> {
  if (body instanceof Uint8Array) {
    await consumeCappedBody(body, options, () => undefined);
    return body;
  }
  const chunks: Uint8Array[] = [];
  const total = await consumeCappedBody(body, options, (chunk) => chunks.push(chunk));
  return Buffer.concat(chunks, total);
}
