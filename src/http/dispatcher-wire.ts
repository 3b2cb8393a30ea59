import type { Dispatcher } from 'undici';
import type { Cancellation } from './attempt-deadline.js';
import { RawHeaders } from './raw-headers.js';
import type { Wire, WireAnswer, WireRequest } from './wire.js';

/** A body dropped unread is drained this far to keep its socket for the next request; past it, the socket closes. */
const DRAIN_LIMIT = 64 * 1024;

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}

/**
 * One request on the dispatcher's callback API (`dispatch`): the head, each
 * chunk and the end arrive as calls, and the body is gathered as it comes,
 * up to the cap the reader names. No stream, promise or signal is made that
 * the answer does not need.
 */
class DispatchedRequest implements Dispatcher.DispatchHandler, WireAnswer {
  status = 0;
  // Set with the final head, before `head` resolves: nobody reads it earlier.
  headers!: Headers;
  private controller: Dispatcher.DispatchController | undefined;
  private chunks: Buffer[] = [];
  private bytes = 0;
  private limitBytes = Number.POSITIVE_INFINITY;
  private discarding = false;
  private ended = false;
  private failure: Error | undefined;
  private headSettled = false;
  private reader: { resolve(bytes: Uint8Array | undefined): void; reject(error: Error): void } | undefined;

  constructor(
    cancellation: Cancellation,
    private readonly head: { resolve(answer: WireAnswer): void; reject(error: Error): void },
  ) {
    // A deadline can pass before the request has a socket: the caller hears at once, the socket when it comes.
    cancellation.onAbort((reason) => this.fail(asError(reason)));
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.failure) controller.abort(this.failure);
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    status: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    // An informational answer (103 Early Hints) comes before the real one: like fetch, wait for that.
    if (status < 200) return;
    this.status = status;
    this.headers = new RawHeaders(headers);
    this.headSettled = true;
    this.head.resolve(this);
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.bytes += chunk.byteLength;
    if (this.discarding) {
      if (this.bytes > DRAIN_LIMIT) this.controller?.abort(new Error('answer dropped unread'));
    } else if (this.bytes > this.limitBytes) this.overflow();
    else this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    this.ended = true;
    this.reader?.resolve(this.collected());
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.fail(error);
  }

  read(limitBytes: number): Promise<Uint8Array | undefined> {
    this.limitBytes = limitBytes;
    if (this.bytes > limitBytes) {
      this.overflow();
      return Promise.resolve(undefined);
    }
    if (this.ended) return Promise.resolve(this.collected());
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.reader = { resolve, reject };
    });
  }

  async discard(): Promise<void> {
    this.discarding = true;
    this.chunks = [];
    if (!this.ended && this.bytes > DRAIN_LIMIT) this.controller?.abort(new Error('answer dropped unread'));
  }

  private collected(): Uint8Array {
    const [only] = this.chunks;
    return this.chunks.length === 1 && only ? only : Buffer.concat(this.chunks);
  }

  /** Past the cap: the rest is not read, and the socket that carried it closes. */
  private overflow(): void {
    this.chunks = [];
    this.discarding = true;
    const reader = this.reader;
    this.reader = undefined;
    reader?.resolve(undefined);
    // Last: undici reports the abort back through onResponseError at once, which must find nothing left to fail.
    this.ended = true;
    this.controller?.abort(new Error('answer larger than the cap'));
  }

  /** The first failure wins: later ones (the abort echoing back as an error) change nothing. */
  private fail(error: Error): void {
    if (this.failure || this.ended) return;
    this.failure = error;
    this.controller?.abort(error);
    if (!this.headSettled) {
      this.headSettled = true;
      this.head.reject(error);
    }
    const reader = this.reader;
    this.reader = undefined;
    reader?.reject(error);
  }
}

/**
 * The wire straight on an undici dispatcher, through its callback API: the
 * same keep-alive sockets, timeouts and proxy rules as fetch with that
 * dispatcher, without fetch's WHATWG Request, Response and stream objects,
 * which cost about as much CPU as everything else an invocation does. It
 * follows no redirect and does not decompress; we ask for no encoding, so
 * none comes.
 */
export function dispatcherWire(dispatcher: Dispatcher): Wire {
  return (request: WireRequest) =>
    new Promise<WireAnswer>((resolve, reject) => {
      const handler = new DispatchedRequest(request.cancellation, { resolve, reject });
      if (request.cancellation.aborted) return;
      try {
        dispatcher.dispatch(
          {
            origin: request.url.origin,
            path: `${request.url.pathname}${request.url.search}`,
            method: request.method as Dispatcher.HttpMethod,
            headers: request.headers,
            body: request.body ?? null,
          },
          handler,
        );
      } catch (error) {
        // undici refuses some requests (a bad header) before sending anything, by throwing.
        handler.onResponseError(undefined as never, asError(error));
      }
    });
}
