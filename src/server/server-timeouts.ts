import type { ServerOptions } from 'node:http';

/** How long a caller may take to send a request, and to stay idle between two. */
export interface ServerTimeouts {
  /** Time a request may take to send its headers. */
  headersTimeoutMs: number;
  /** Time a request may take to arrive whole, headers and body (not the answer). */
  requestTimeoutMs: number;
  /** Time a kept-alive connection may wait idle for its next request; Node's own 5 s when absent. */
  keepAliveTimeoutMs?: number | undefined;
}

/**
 * The `node:http` server options that put `timeouts` in force, shared by
 * every server of ours (`listen`'s intake, MCP over HTTP, the builder).
 * Node checks request timeouts on a timer, every 30 s unless told: here
 * every second, or sooner for a shorter timeout, so a limit in seconds holds.
 */
export function serverTimeoutOptions(timeouts: ServerTimeouts): ServerOptions {
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = timeouts;
  return {
    headersTimeout: Math.min(headersTimeoutMs, requestTimeoutMs),
    requestTimeout: requestTimeoutMs,
    connectionsCheckingInterval: Math.min(1_000, Math.ceil(headersTimeoutMs / 4)),
    ...(keepAliveTimeoutMs === undefined ? {} : { keepAliveTimeout: keepAliveTimeoutMs }),
  };
}
