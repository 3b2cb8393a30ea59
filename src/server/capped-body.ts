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
  // A Headers, or one read in place (RawHeaders, which is no instance of the class), or Node's record.
  const value =
    typeof headers.get === 'function'
      ? (headers as Headers).get('content-length')
      : (headers as IncomingHttpHeaders)['content-length'];
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

export interface CappedRequestOptions {
  /** The most bytes read; past it, BodyTooLarge. */
  limit: number;
  /** What the request declared (`declaredLength`): over the limit, refused before a byte is read. */
  declared?: number | undefined;
  /** How long the body may take to arrive whole; past it, BodyTimedOut. */
  deadlineMs?: number | undefined;
}

/**
 * A Node request's body, held whole within the limit: the capped reader for
 * the servers' JSON bodies (the builder's, MCP's), on the stream's own
 * events with one plain timer for the deadline. Reading it through
 * `requestChunks` and an AbortSignal cost each request an async iterator, an
 * EventTarget and a listener added and removed per chunk: the largest part
 * of what a small JSON request cost the builder over its old hand-written
 * server (docs/benchmarks.md). Past the limit it stops reading where it is
 * (the stream paused, never destroyed, so the sender gets the answer, not a
 * reset); a request that ends early, or fails, rejects with what the stream
 * said.
 */
export function readCappedRequest(request: IncomingMessage, options: CappedRequestOptions): Promise<Buffer> {
  const { limit, declared, deadlineMs } = options;
  return new Promise((resolve, reject) => {
    checkDeclaredLength(declared, limit);
    const chunks: Buffer[] = [];
    let total = 0;
    let timer: NodeJS.Timeout | undefined;
    const stop = () => {
      if (timer) clearTimeout(timer);
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
      request.off('close', onClose);
    };
    const fail = (error: unknown) => {
      stop();
      request.pause();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total > limit) return fail(new BodyTooLarge(limit));
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total));
    };
    const onError = (error: Error) => fail(error);
    // A request whose connection closes before its body ended never emits `end`.
    const onClose = () =>
      fail(Object.assign(new Error('The request ended before its body.'), { code: 'ECONNRESET' }));
    if (deadlineMs !== undefined) timer = setTimeout(() => fail(new BodyTimedOut()), deadlineMs);
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
    request.on('close', onClose);
  });
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
