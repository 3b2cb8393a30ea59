import type { AppServerLimits } from '../../server/app-server.js';

/**
 * How much of the machine callers who never finish a request can take. The
 * token is checked only once a request's headers are in, so without these a
 * caller without it could hold any number of connections with headers sent a
 * byte at a time (Node waits a minute), and one with it as many half-sent
 * initialize bodies of up to 64 KB each (Node waits five minutes).
 */
export interface McpConnectionLimits {
  /**
   * Connections held at once. Past it, a new connection takes the place of
   * the oldest one answering no request (still sending its headers, or
   * idle), and is closed unread only when every one is answering. Each
   * session's listening stream holds one. Default four per session of
   * `maxSessions` (256 with its default).
   */
  maxConnections?: number | undefined;
  /** Time a request may take to send its headers. Default 10 s. */
  headersTimeoutMs?: number | undefined;
  /**
   * Time a request may take to arrive whole, headers and body (not the
   * answer: a listening stream or a long tool call is not cut). Default 30 s.
   */
  requestTimeoutMs?: number | undefined;
}

/** The limits a server gets unless told otherwise: tight enough that idle or slow clients cannot hold it open. */
export const DEFAULT_MCP_CONNECTION_LIMITS: Readonly<
  Required<Omit<McpConnectionLimits, 'maxConnections'>> & { connectionsPerSession: number }
> = Object.freeze({
  connectionsPerSession: 4,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
});

/** The shared server's limits for `limits`, over the defaults. */
export function mcpServerLimits(limits: McpConnectionLimits, maxSessions: number): AppServerLimits {
  const maxConnections =
    limits.maxConnections ?? DEFAULT_MCP_CONNECTION_LIMITS.connectionsPerSession * maxSessions;
  return {
    headersTimeoutMs: limits.headersTimeoutMs ?? DEFAULT_MCP_CONNECTION_LIMITS.headersTimeoutMs,
    requestTimeoutMs: limits.requestTimeoutMs ?? DEFAULT_MCP_CONNECTION_LIMITS.requestTimeoutMs,
    maxConnections,
    // No cap of its own per address: an agent host, or the TLS proxy in front, brings every client from one.
    maxConnectionsPerAddress: maxConnections,
  };
}
