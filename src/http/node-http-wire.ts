import type { Agent, ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import type { Cancellation } from './attempt-deadline.js';
import { RawHeaders } from './raw-headers.js';
import type { Wire, WireAnswer, WireRequest } from './wire.js';

/** A body dropped unread is drained this far to keep its socket for the next request; past it, the socket closes. */
const DRAIN_LIMIT = 64 * 1024;

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}

interface Transport {
  send: (url: URL, options: RequestOptions) => ClientRequest;
  agent: Agent;
}

function keptAlive(module: typeof import('node:http') | typeof import('node:https')): Transport {
  return { send: module.request, agent: new module.Agent({ keepAlive: true }) };
}

let plain: Transport | undefined;
let secure: Transport | undefined;

/**
 * One keep-alive agent per protocol for the whole process, so a step's
 * requests (get_ticket_info sends two) share a socket. Node unrefs a free
 * keep-alive socket, so an idle one never keeps a one-shot command alive.
 * Each module is loaded with its first request, not with this file, which
 * every runtime imports: node:http costs about 2 ms, node:https (TLS) about
 * 2 ms more, and a loopback sandbox run never needs it.
 */
function transportFor(url: URL): Transport {
  if (url.protocol === 'https:') {
    secure ??= keptAlive(process.getBuiltinModule('node:https'));
    return secure;
  }
  // Any other protocol goes to node:http too, which refuses it (ERR_INVALID_PROTOCOL) before sending.
  plain ??= keptAlive(process.getBuiltinModule('node:http'));
  return plain;
}

/**
 * One request on node:http: the head, each chunk and the end arrive as
 * events, and the body is gathered as it comes, up to the cap the reader
 * names (the same bookkeeping as the dispatcher wire's handler).
 */
class NodeHttpExchange implements WireAnswer {
  status = 0;
  // Set with the final head, before `head` resolves: nobody reads it earlier.
  headers!: Headers;
  request: ClientRequest | undefined;
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
    // A deadline can pass before the request has a socket: the caller hears at once, and the request is destroyed.
    cancellation.onAbort((reason) => this.fail(asError(reason)));
  }

  /** node:http emits 1xx answers (103 Early Hints) as 'information', so this is always the final one. */
  onResponse(response: IncomingMessage): void {
    this.status = response.statusCode ?? 0;
    this.headers = new RawHeaders(response.headers);
    // A cut-off body (the socket closed early) comes as an 'error' here; without a listener it would crash the process.
    response.on('error', (error) => this.fail(error));
    response.on('data', (chunk: Buffer) => this.onData(chunk));
    response.on('end', () => this.onEnd());
    this.headSettled = true;
    this.head.resolve(this);
  }

  private onData(chunk: Buffer): void {
    this.bytes += chunk.byteLength;
    if (this.discarding) {
      if (this.bytes > DRAIN_LIMIT) this.request?.destroy();
    } else if (this.bytes > this.limitBytes) this.overflow();
    else this.chunks.push(chunk);
  }

  private onEnd(): void {
    if (this.failure) return;
    this.ended = true;
    this.reader?.resolve(this.collected());
    this.reader = undefined;
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
    // A small rest is drained so its socket returns to the agent; a large one costs more than a new socket.
    if (!this.ended && this.bytes > DRAIN_LIMIT) this.request?.destroy();
  }

  private collected(): Uint8Array {
    const [only] = this.chunks;
    return this.chunks.length === 1 && only ? only : Buffer.concat(this.chunks);
  }

  /** Past the cap: the rest is not read, and the socket that carried it closes. */
  private overflow(): void {
    this.chunks = [];
    this.discarding = true;
    // Ended first: the destroy echoes back as an 'error', which must find nothing left to fail.
    this.ended = true;
    const reader = this.reader;
    this.reader = undefined;
    reader?.resolve(undefined);
    this.request?.destroy();
  }

  /** The first failure wins: later ones (our own destroy echoing back as an error) change nothing. */
  fail(error: Error): void {
    if (this.failure || this.ended) return;
    this.failure = error;
    this.request?.destroy(error);
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
 * The wire on Node's own node:http and node:https: no undici package and
 * not Node's bundled undici either, whose first fetch compiles that bundle
 * and the web streams (12 to 15 ms of a cold CLI `run`, against about 2 ms
 * to load node:http). Meant for short-lived processes; it honours no proxy
 * variables. It follows no redirect (node:http never does) and does not
 * decompress; we ask for no encoding, so none comes.
 */
export function nodeHttpWire(): Wire {
  return (request: WireRequest) =>
    new Promise<WireAnswer>((resolve, reject) => {
      const exchange = new NodeHttpExchange(request.cancellation, { resolve, reject });
      if (request.cancellation.aborted) return;
      try {
        const { send, agent } = transportFor(request.url);
        const outgoing = send(request.url, {
          method: request.method,
          headers: request.headers,
          agent,
          // A repeated header reads joined with ", ", as undici and Headers give it; by default node keeps only the first of some.
          joinDuplicateHeaders: true,
        });
        exchange.request = outgoing;
        // Connection failures (ECONNREFUSED, ENOTFOUND) arrive here with node's `code`, which classifyException reads.
        outgoing.on('error', (error) => exchange.fail(error));
        outgoing.on('response', (response) => exchange.onResponse(response));
        outgoing.end(request.body);
      } catch (error) {
        // node:http refuses some requests (a bad header, an unknown protocol) before sending anything, by throwing.
        exchange.fail(asError(error));
      }
    });
}
