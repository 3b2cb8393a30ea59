import { InputError } from '../errors/index.js';
import type { AppServerLimits } from '../server/app-server.js';
import { definedOnly } from '../values/defined-only.js';

/**
 * How much of the machine callers who never finish a request can take from
 * `serve` and `ui`. The token is read only once a request's headers are
 * in, so these hold for callers without any token.
 */
export interface BuilderConnectionLimits {
  /**
   * Connections held at once, in all. Past it, a new connection takes the
   * place of the oldest one that answers no request (still sending headers,
   * or idle), and is closed unread only when every one is answering.
   */
  maxConnections?: number | undefined;
  /** The same from one address (an IPv6 /64): past it, a new one takes the place of that address's oldest idle one. */
  maxConnectionsPerAddress?: number | undefined;
  /** Time a request may take to send its headers. */
  headersTimeoutMs?: number | undefined;
  /** Time a request may take to arrive whole, headers and body (not the answer: an event stream is not cut). */
  requestTimeoutMs?: number | undefined;
  /** Time a kept-alive connection may wait idle for its next request. */
  keepAliveTimeoutMs?: number | undefined;
}

/**
 * The limits unless told otherwise (docs/security.md). A page keeps a few
 * connections per tab and a TLS proxy in front brings every caller from
 * its one address, so one address may hold a quarter of the server: 256
 * of 1,024, well under the descriptors a server process commonly gets
 * (Node raises its soft limit to the hard one, 4,096 or more on common systems).
 * An attacker on that same address (loopback) takes the place only of idle
 * connections, its own first, so a request that arrives whole is answered.
 * Headers and bodies come in one go from a page or a provider: 10 s and
 * 30 s are generous; an idle connection gives way after 5 s (Node's own).
 */
export const DEFAULT_BUILDER_CONNECTION_LIMITS: Readonly<Required<BuilderConnectionLimits>> = Object.freeze({
  maxConnections: 1_024,
  maxConnectionsPerAddress: 256,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
});

const withDefaults = (limits: BuilderConnectionLimits) => ({
  ...DEFAULT_BUILDER_CONNECTION_LIMITS,
  ...definedOnly(limits),
});

/** Refuses limits that are no positive whole number, and a per-address limit above the whole. */
export function checkConnectionLimits(limits: BuilderConnectionLimits = {}): void {
  const merged = withDefaults(limits);
  for (const [name, value] of Object.entries(merged)) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new InputError(`connectionLimits.${name} must be a positive whole number.`, [
        { path: `connectionLimits.${name}`, message: 'a positive whole number' },
      ]);
    }
  }
  if (merged.maxConnectionsPerAddress > merged.maxConnections) {
    throw new InputError('connectionLimits.maxConnectionsPerAddress is more than maxConnections.', [
      { path: 'connectionLimits.maxConnectionsPerAddress', message: 'at most maxConnections' },
    ]);
  }
}

/** The limits in force for the builder's app server: `limits` over the defaults. */
export function builderServerLimits(limits: BuilderConnectionLimits = {}): AppServerLimits {
  return withDefaults(limits);
}
