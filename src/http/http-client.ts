import type { Clock } from '../clock.js';
import { redactSecrets } from '../errors/index.js';
import type { Logger } from '../logger.js';
import type { Integration } from '../step/define-integration.js';
import { attempt } from './attempt.js';
import { type Exchange, NO_STATS, type RequestStats } from './exchange.js';
import { followRedirects } from './follow-redirects.js';
import type { Gate } from './gate.js';
import { baseScope, type HttpRequest, prepareRequest } from './prepare-request.js';
import { rejectFailures } from './reject-failures.js';
import type { RetryOptions } from './retry-policy.js';
import type { Wire } from './wire.js';
import { type BoundCredentials, withAuthRefresh } from './with-auth-refresh.js';
import { withRateGate } from './with-rate-gate.js';
import { withRetries } from './with-retries.js';

export type { HttpRequest } from './prepare-request.js';
export type { BoundCredentials } from './with-auth-refresh.js';

export interface HttpResponse<Body = unknown> {
  status: number;
  headers: Headers;
  body: Body;
  /** True when the provider redirected the request and the answer comes from where it pointed. */
  redirected?: boolean;
}

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
  /** How bytes reach the provider: `dispatcherWire` or `fetchWire`. */
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

/**
 * The transport of one invocation, composed of small stages (outermost first):
 *
 *   withAuthRefresh -> prepareRequest -> withRetries -> withRateGate
 *     -> rejectFailures -> followRedirects -> attempt
 *
 * Each stage is its own file and returns an `Exchange` (the answer or the
 * error, and the stats of everything it sent); nothing writes shared state.
 */
export function createHttpClient(options: HttpClientOptions): TransportClient {
  const { integration, credentials, clock, signal } = options;
  const secrets = options.secrets ?? (() => Object.values(credentials.current().secrets));
  const redact = (text: string) => redactSecrets(text, secrets());
  const once = attempt({ ...options, readRateLimit: integration.readRateLimit, redact, secrets });
  const classified = rejectFailures(followRedirects(once, baseScope(options.baseUrl)), {
    integration,
    redact,
    secrets,
    now: () => clock.now(),
    connection: () => credentials.current(),
    canRefresh: credentials.refresh !== undefined,
  });
  const retried = withRetries(withRateGate(classified, options.gate, signal), options);
  const send = withAuthRefresh(async (request: HttpRequest): Promise<Exchange> => {
    try {
      return await retried(prepareRequest(request, credentials.current(), options));
    } catch (error) {
      return { ok: false, error, stats: NO_STATS };
    }
  }, credentials);
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
