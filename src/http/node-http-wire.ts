import type { Agent, ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import { RawHeaders } from './raw-headers.js';
import { asError, GatheredAnswer, type Wire, type WireAnswer, type WireRequest } from './wire.js';

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
 * every runtime imports: a loopback sandbox run never needs node:https (TLS).
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

/** One request on node:http: the head, each chunk and the end arrive as events. */
class NodeHttpExchange extends GatheredAnswer {
  request: ClientRequest | undefined;

  /** node:http emits 1xx answers (103 Early Hints) as 'information', so this is always the final one. */
  onResponse(response: IncomingMessage): void {
    // A cut-off body (the socket closed early) comes as an 'error' here; without a listener it would crash the process.
    response.on('error', (error) => this.fail(error));
    response.on('data', (chunk: Buffer) => this.gather(chunk));
    response.on('end', () => this.finished());
    this.started(response.statusCode ?? 0, new RawHeaders(response.headers));
  }

  /** Destroying the request closes its socket; only a failure is passed on, as the error it ends with. */
  protected stop(reason: Error, failed: boolean): void {
    this.request?.destroy(failed ? reason : undefined);
  }
}

/**
 * The wire on Node's own node:http and node:https: no undici package and
 * not Node's bundled undici either, whose first fetch compiles that bundle
 * and the web streams. Meant for short-lived processes; it honours no proxy
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
