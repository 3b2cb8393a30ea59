import { AuthError, redactSecrets, type ToolstepsError } from '../errors/index.js';
import type { Clock } from '../model/clock.js';
import type { Connection } from '../model/connection.js';
import type { Integration } from '../model/define-integration.js';
import type { Logger } from '../model/logger.js';
import type { Gate } from '../model/rate-limit.js';
import { telemetryRegistered } from '../telemetry/index.js';
import { attempt } from './attempt.js';
import { rejectFailures } from './classify-failures.js';
import {
  addStats,
  baseScope,
  type Exchange,
  type HttpRequest,
  NO_STATS,
  prepareRequest,
  type RequestStats,
} from './exchange.js';
import { followRedirects } from './follow-redirects.js';
import { withRateGate } from './rate-gate.js';
import { type RetryOptions, withRetries } from './retries.js';
import { observedGate, withAttemptSpans } from './transport-telemetry.js';
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

/** A step's request and the count of attempts sent for it, which its refresh replay goes on counting. */
interface CountedRequest {
  request: HttpRequest;
  sends: { count: number };
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
  return async (request: Request): Promise<Exchange> => {
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
  };
}

/**
 * The transport of one invocation, composed of small stages (outermost first):
 *
 *   withAuthRefresh (above) -> prepareRequest (exchange.ts)
 *     -> withRetries (retries.ts) -> withRateGate (rate-gate.ts)
 *     -> rejectFailures (classify-failures.ts) -> followRedirects (follow-redirects.ts)
 *     -> attempt (attempt.ts) -> the wire (wire.ts and the *-wire.ts files)
 *
 * Each stage returns an `Exchange` (the answer or the error, and the stats
 * of everything it sent); nothing writes shared state.
 */
export function createHttpClient(options: HttpClientOptions): TransportClient {
  const { integration, credentials, clock, signal } = options;
  const secrets = options.secrets ?? (() => Object.values(credentials.current().secrets));
  const redact = (text: string) => redactSecrets(text, secrets());
  const sent = attempt({ ...options, readRateLimit: integration.readRateLimit, redact, secrets });
  // Decided once per client (one invocation): without an SDK registered, nothing of telemetry is in the way.
  const traced = telemetryRegistered();
  const connectionId = () => credentials.current().id;
  const once = traced ? withAttemptSpans(sent, { integration, connectionId }) : sent;
  const gate = traced ? observedGate(options.gate, clock, integration.id) : options.gate;
  const classified = rejectFailures(followRedirects(once, baseScope(options.baseUrl)), {
    integration,
    redact,
    secrets,
    now: () => clock.now(),
    connection: () => credentials.current(),
    canRefresh: credentials.refresh !== undefined,
  });
  const retried = withRetries(withRateGate(classified, gate, signal), options);
  const counted = withAuthRefresh(async ({ request, sends }: CountedRequest): Promise<Exchange> => {
    try {
      return await retried(prepareRequest(request, credentials.current(), options, sends));
    } catch (error) {
      return { ok: false, error, stats: NO_STATS };
    }
  }, credentials);
  const send = (request: HttpRequest) => counted({ request, sends: { count: 0 } });
  return {
    baseUrl: options.baseUrl,
    send,
    async request<Body>(request: HttpRequest): Promise<HttpResponse<Body>> {
      const result = await send(request);
      options.onStats?.(result.stats);
      if (!result.ok) throw result.error;
      const { status, headers, body, redirected } = result.answer;
      return { status, headers, body: body as Body, redirected };
    },
  };
}
