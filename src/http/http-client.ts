import { AuthError, type ToolstepsError } from '../errors/index.js';
import type { Clock } from '../model/clock.js';
import type { Connection } from '../model/connection.js';
import type { Integration } from '../model/define-integration.js';
import type { Logger } from '../model/logger.js';
import type { Gate } from '../model/rate-limit.js';
import { addStats, type Exchange, type HttpRequest, type RequestStats } from './exchange.js';
import type { RetryOptions } from './retries.js';
import type { Wire } from './wire.js';

export type { HttpRequest } from './exchange.js';

/** A provider's successful answer, body already parsed and size-capped; failures arrive as errors instead. */
export interface HttpResponse<Body = unknown> {
  status: number;
  headers: Headers;
  body: Body;
  /** True when the provider redirected the request and the answer comes from where it pointed. */
  redirected?: boolean;
}

/**
 * What a step handler gets as `ctx.http`: bound to one connection (base URL,
 * credentials, rate gate, retries), so a handler only builds requests and
 * shapes answers.
 */
export interface HttpClient {
  /** Sends a request; resolves with the provider's 2xx answer or rejects with an error of the family. */
  request<Body = unknown>(request: HttpRequest): Promise<HttpResponse<Body>>;
  readonly baseUrl: string;
}

/** The client the runtime builds: `send` returns how a request ended and what it cost, instead of throwing. */
export interface TransportClient extends HttpClient {
  send(request: HttpRequest): Promise<Exchange>;
}

/** A client of one invocation: what its `request`s cost so far, added up. */
export interface InvocationClient extends TransportClient {
  readonly spent: RequestStats;
}

export interface HttpClientOptions {
  integration: Integration;
  baseUrl: string;
  defaultQuery: Record<string, string | undefined>;
  credentials: BoundCredentials;
  /** How bytes reach the provider: `dispatcherWire`, `fetchWire` or `nodeHttpWire`. */
  wire: Wire;
  clock: Clock;
  gate: Gate;
  retry: RetryOptions;
  logger: Logger;
  signal?: AbortSignal | undefined;
  /** The step's own declaration; a POST search is idempotent, a POST create is not. */
  stepIdempotent: boolean;
  requestTimeoutMs: number;
  /** Most bytes of one answer's body; a larger answer fails with ResponseTooLargeError. */
  maxResponseBytes: number;
  /**
   * Every secret the connection has held during the invocation (a refreshed
   * token's predecessor too); default: its current secrets.
   */
  secrets?: (() => string[]) | undefined;
  /** Hears what each `request` cost, so the caller (the runtime) can add it up. */
  onStats?: ((stats: RequestStats) => void) | undefined;
}

/** The connection a client sends as, and how to renew it. */
export interface BoundCredentials {
  current(): Connection;
  /** Present when the connection can be refreshed: forces a refresh and returns the new connection. */
  refresh?: (() => Promise<Connection>) | undefined;
}

function refused(error: unknown): error is AuthError {
  return error instanceof AuthError && error.status === 401;
}

function reauthorize(error: ToolstepsError, connection: Connection): AuthError {
  return new AuthError(
    `${error.message} The token was refreshed and still refused: connection "${connection.id}" needs re-authorisation (run: toolsteps connect ${connection.integration} --id ${connection.id}).`,
    { ...error.asInit(), reauthorize: true },
  );
}

/**
 * A 401 refreshes the token once and replays once: a 401 means the provider
 * did not act, so the replay is safe for any request. `send` prepares the
 * request anew each time, so the replay carries the new token. A second 401
 * means the connection needs re-authorisation.
 */
export function withAuthRefresh<Request>(
  send: (request: Request) => Promise<Exchange>,
  credentials: BoundCredentials,
): (request: Request) => Promise<Exchange> {
  return (request: Request) => sendRefreshingOnce(send, request, credentials);
}

/** `withAuthRefresh` for one request, called plainly by a client that serves many invocations. */
export async function sendRefreshingOnce<Request>(
  send: (request: Request) => Promise<Exchange>,
  request: Request,
  credentials: BoundCredentials,
): Promise<Exchange> {
  const first = await send(request);
  if (first.ok || !refused(first.error) || !credentials.refresh) return first;
  const connection = credentials.current();
  try {
    await credentials.refresh();
  } catch (error) {
    return { ok: false, error, stats: first.stats };
  }
  const second = await send(request);
  const stats = addStats(first.stats, second.stats);
  if (second.ok) return { ...second, stats };
  return {
    ok: false,
    error: refused(second.error) ? reauthorize(second.error, connection) : second.error,
    stats,
  };
}
