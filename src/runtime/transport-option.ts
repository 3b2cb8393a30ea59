import type { Dispatcher } from 'undici';
import { dispatcherWire, sharedDispatcher } from '../http/dispatcher-wire.js';
import { fetchWire } from '../http/fetch-wire.js';
import { nodeHttpWire } from '../http/node-http-wire.js';
import type { Wire } from '../http/wire.js';

type Fetch = typeof globalThis.fetch;

/**
 * How a runtime's requests reach the provider: one option, whose every
 * value docs/transport.md lays out in one table.
 *
 * - `'undici'` (default): straight on one shared keep-alive undici Agent,
 *   which honours the proxy variables.
 * - `'fetch'`: the global fetch on its own dispatcher; loads no undici package.
 * - `'node-http'`: Node's own node:http and node:https; loads no undici at
 *   all (short-lived processes such as the CLI's one-shot commands), honours
 *   no proxy variables.
 * - `{ dispatcher }`: straight on the embedder's own undici dispatcher.
 * - `{ fetch }`: through the given fetch (a test interceptor, a tracing
 *   wrapper), on `dispatcher` when given, else on the shared Agent.
 */
export type Transport =
  | 'undici'
  | 'fetch'
  | 'node-http'
  | { dispatcher: Dispatcher; fetch?: undefined }
  | { fetch: Fetch; dispatcher?: Dispatcher | undefined };

/** OAuth token requests always go through a fetch: this one, on this dispatcher (undefined: fetch's own). */
export interface TokenFetch {
  fetch: Fetch;
  dispatcher: Dispatcher | undefined;
}

export interface ResolvedTransport {
  /** What carries the steps' requests. */
  wire: Wire;
  /** What carries OAuth token requests. */
  tokens: TokenFetch;
}

/** The global fetch, looked up per request so an interceptor installed after the runtime (nock) sees it. */
const globalFetch: Fetch = (...args) => globalThis.fetch(...args);

function describe(transport: unknown): string {
  return typeof transport === 'string' ? `"${transport}"` : typeof transport;
}

/**
 * The wire of the steps' requests and the fetch of token requests for one
 * `transport`. Only `'undici'`, `{ dispatcher }` and `{ fetch }` without a
 * dispatcher make the shared Agent, which loads the undici package.
 */
export function resolveTransport(transport: Transport = 'undici'): ResolvedTransport {
  if (transport === 'undici') {
    const dispatcher = sharedDispatcher();
    return { wire: dispatcherWire(dispatcher), tokens: { fetch: globalFetch, dispatcher } };
  }
  if (transport === 'fetch' || transport === 'node-http') {
    const wire = transport === 'fetch' ? fetchWire(globalFetch, undefined) : nodeHttpWire();
    return { wire, tokens: { fetch: globalFetch, dispatcher: undefined } };
  }
  if (typeof transport === 'object' && transport !== null) {
    if (typeof transport.fetch === 'function') {
      const dispatcher = transport.dispatcher ?? sharedDispatcher();
      return { wire: fetchWire(transport.fetch, dispatcher), tokens: { fetch: transport.fetch, dispatcher } };
    }
    if (transport.dispatcher) {
      const { dispatcher } = transport;
      return { wire: dispatcherWire(dispatcher), tokens: { fetch: globalFetch, dispatcher } };
    }
  }
  throw new TypeError(
    `transport must be 'undici', 'fetch', 'node-http', { dispatcher } or { fetch }; got ${describe(transport)}.`,
  );
}
