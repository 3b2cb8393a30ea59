// What a wire is (Wire, WireRequest, WireAnswer, Cancellation), and what the dispatcher and
// node:http wires share: an answer gathered from callbacks (GatheredAnswer); its headers are raw-headers.ts.
/**
 * How a wire hears that its request must stop: the time limit passed or the
 * caller aborted. Lighter than an AbortSignal, which the dispatcher wire does
 * not need; the fetch wire makes one from it.
 */
export interface Cancellation {
  readonly aborted: boolean;
  readonly reason: unknown;
  /** Calls `listener` once when the request must stop (at once if it already must). */
  onAbort(listener: (reason: unknown) => void): void;
}

/** One hop as the wire sees it: where, how, and what ends it early. */
export interface WireRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  cancellation: Cancellation;
}

/** An answer off the wire before its body is read: what every wire hands to `attempt`. */
export interface WireAnswer {
  status: number;
  headers: Headers;
  /**
   * Reads the whole body; past `limitBytes` it stops, drops the rest and
   * resolves `undefined`. Each wire reads its own body the cheapest way.
   */
  read(limitBytes: number): Promise<Uint8Array | undefined>;
  /** Drops the rest of the body unread (a redirect's, an oversized one's), freeing the socket. */
  discard(): Promise<void>;
}

/**
 * Sends one request, follows no redirect, and resolves once the status and
 * headers are in (the body is read by the caller). Three exist: straight on
 * an undici dispatcher (the default), through a `fetch` (an interceptor's, or
 * Node's own), and on node:http (short-lived processes, which should load no
 * undici at all).
 */
export type Wire = (request: WireRequest) => Promise<WireAnswer>;

/** A body dropped unread is drained this far to keep its socket for the next request; past it, the socket closes. */
const DRAIN_LIMIT = 64 * 1024;

export function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}

interface Settle<Value> {
  resolve(value: Value): void;
  reject(error: Error): void;
}

/**
 * An answer whose head, chunks and end arrive as calls (the dispatcher's
 * handler) or events (node:http): the body is gathered as it comes, up to the
 * cap the reader names, with no stream, promise or signal the answer does not
 * need. A wire says how its request stops (`stop`) and reports what arrives.
 */
export abstract class GatheredAnswer implements WireAnswer {
  status = 0;
  // Set with the final head, before `head` resolves: nobody reads it earlier.
  headers!: Headers;
  protected failure: Error | undefined;
  private chunks: Buffer[] = [];
  private bytes = 0;
  private limitBytes = Number.POSITIVE_INFINITY;
  private discarding = false;
  private ended = false;
  private headSettled = false;
  private reader: Settle<Uint8Array | undefined> | undefined;

  constructor(
    cancellation: Cancellation,
    private readonly head: Settle<WireAnswer>,
  ) {
    // A deadline can pass before the request has a socket: the caller hears at once, the socket when it comes.
    cancellation.onAbort((reason) => this.fail(asError(reason)));
  }

  /** Ends the request and its socket: `failed` when it failed, else the rest of the body is only dropped. */
  protected abstract stop(reason: Error, failed: boolean): void;

  protected started(status: number, headers: Headers): void {
    this.status = status;
    this.headers = headers;
    this.headSettled = true;
    this.head.resolve(this);
  }

  protected gather(chunk: Buffer): void {
    this.bytes += chunk.byteLength;
    if (this.discarding) {
      if (this.bytes > DRAIN_LIMIT) this.stop(new Error('answer dropped unread'), false);
    } else if (this.bytes > this.limitBytes) this.overflow();
    else this.chunks.push(chunk);
  }

  protected finished(): void {
    if (this.failure) return;
    this.ended = true;
    const reader = this.reader;
    this.reader = undefined;
    reader?.resolve(this.collected());
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
    // A small rest is drained so its socket is kept; a large one costs more than a new socket.
    if (!this.ended && this.bytes > DRAIN_LIMIT) this.stop(new Error('answer dropped unread'), false);
  }

  /** The first failure wins: later ones (our own stop echoing back as an error) change nothing. */
  fail(error: Error): void {
    if (this.failure || this.ended) return;
    this.failure = error;
    this.stop(error, true);
    if (!this.headSettled) {
      this.headSettled = true;
      this.head.reject(error);
    }
    const reader = this.reader;
    this.reader = undefined;
    reader?.reject(error);
  }

  private collected(): Uint8Array {
    const [only] = this.chunks;
    return this.chunks.length === 1 && only ? only : Buffer.concat(this.chunks);
  }

  /** Past the cap: the rest is not read, and the socket that carried it closes. */
  private overflow(): void {
    this.chunks = [];
    this.discarding = true;
    // Ended before the stop, which echoes back as an error that must find nothing left to fail.
    this.ended = true;
    const reader = this.reader;
    this.reader = undefined;
    reader?.resolve(undefined);
    this.stop(new Error('answer larger than the cap'), false);
  }
}
