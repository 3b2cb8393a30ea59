// The transport of one connection, composed once and shared by its invocations (PreparedTransport),
// and the client of one invocation bound to it (BoundClient).
import { redactSecrets } from '../errors/index.js';
import { telemetryRegistered } from '../telemetry/index.js';
import { attempt } from './attempt.js';
import { rejectFailures } from './classify-failures.js';
import {
  addStats,
  baseScope,
  type CallScope,
  type Exchange,
  type HttpRequest,
  NO_STATS,
  prepareRequest,
  type RequestStats,
  type Send,
} from './exchange.js';
import { followRedirects } from './follow-redirects.js';
import {
  type BoundCredentials,
  type HttpClientOptions,
  type HttpResponse,
  type InvocationClient,
  sendRefreshingOnce,
} from './http-client.js';
import { withRateGate } from './rate-gate.js';
import { withRetries } from './retries.js';
import { observedGate, withAttemptSpans } from './transport-telemetry.js';

/** What a transport prepared once for a step's integration and a connection needs: everything but the invocation's own. */
export type TransportOptions = Omit<HttpClientOptions, 'credentials' | 'signal' | 'secrets' | 'onStats'> & {
  /** The connection's id, for the attempt spans (the stages serve that one connection only). */
  connectionId: string;
};

/** The invocation's part of a client: its credentials, signal and secrets, and who hears what each request cost. */
export type InvocationBinding = Pick<HttpClientOptions, 'credentials' | 'signal' | 'secrets' | 'onStats'>;

/**
 * The transport of one step's integration and one connection, composed once
 * of small stages (outermost first) and shared by every invocation:
 *
 *   auth refresh (above) -> prepareRequest (exchange.ts)
 *     -> withRetries (retries.ts) -> withRateGate (rate-gate.ts)
 *     -> rejectFailures (classify-failures.ts) -> followRedirects (follow-redirects.ts)
 *     -> attempt (attempt.ts) -> the wire (wire.ts and the *-wire.ts files)
 *
 * Each stage returns an `Exchange` (the answer or the error, and the stats
 * of everything it sent); nothing writes shared state. What differs per
 * invocation (the connection as it is now, its secrets, the caller's signal)
 * travels with each request (`Outgoing.call`), so `bind` makes a client of
 * one invocation without composing anything.
 */
export class PreparedTransport {
  readonly baseUrl: string;
  readonly options: TransportOptions;
  readonly retried: Send;
  /** Whether an OpenTelemetry SDK was registered when the stages were composed (the spans are in them or not). */
  readonly traced: boolean;

  constructor(options: TransportOptions) {
    const { integration, clock } = options;
    this.baseUrl = options.baseUrl;
    this.options = options;
    const sent = attempt({ ...options, readRateLimit: integration.readRateLimit, redact: (text) => text });
    // Without an SDK registered, nothing of telemetry is in the way.
    this.traced = telemetryRegistered();
    const connectionId = () => options.connectionId;
    const once = this.traced ? withAttemptSpans(sent, { integration, connectionId }) : sent;
    const gate = this.traced ? observedGate(options.gate, clock, integration.id) : options.gate;
    const classified = rejectFailures(followRedirects(once, baseScope(options.baseUrl)), {
      integration,
      redact: (text) => text,
      secrets: () => [],
      now: () => clock.now(),
      // Every request carries its invocation's scope, which takes the place of these.
      connection: () => {
        throw new Error('a prepared transport sent a request without its invocation');
      },
      canRefresh: false,
    });
    this.retried = withRetries(withRateGate(classified, gate), options);
  }

  /** A client of one invocation over these stages. */
  bind(binding: InvocationBinding): InvocationClient {
    return new BoundClient(this, binding);
  }
}

/** A request prepared and sent on the shared stages with one invocation's scope; never throws. */
async function sendPrepared(
  transport: PreparedTransport,
  request: HttpRequest,
  credentials: BoundCredentials,
  call: CallScope,
  sends: { count: number },
): Promise<Exchange> {
  try {
    return await transport.retried(
      prepareRequest(request, credentials.current(), transport.options, sends, call),
    );
  } catch (error) {
    return { ok: false, error, stats: NO_STATS };
  }
}

/** One invocation's client: its scope, and the stages of the transport it was bound from. */
class BoundClient implements InvocationClient {
  readonly baseUrl: string;
  spent: RequestStats = NO_STATS;
  private readonly call: CallScope;

  constructor(
    private readonly transport: PreparedTransport,
    private readonly binding: InvocationBinding,
  ) {
    this.baseUrl = transport.baseUrl;
    const { credentials } = binding;
    const secrets = binding.secrets ?? (() => Object.values(credentials.current().secrets));
    this.call = {
      signal: binding.signal,
      secrets,
      redact: (text) => redactSecrets(text, secrets()),
      connection: () => credentials.current(),
      canRefresh: credentials.refresh !== undefined,
    };
  }

  send(request: HttpRequest): Promise<Exchange> {
    // Attempts of one step's request: its retries, refresh replay and redirect hops go on counting.
    const sends = { count: 0 };
    const { credentials } = this.binding;
    if (!credentials.refresh) return sendPrepared(this.transport, request, credentials, this.call, sends);
    return sendRefreshingOnce(
      (again: HttpRequest) => sendPrepared(this.transport, again, credentials, this.call, sends),
      request,
      credentials,
    );
  }

  async request<Body>(request: HttpRequest): Promise<HttpResponse<Body>> {
    const result = await this.send(request);
    this.spent = addStats(this.spent, result.stats);
    this.binding.onStats?.(result.stats);
    if (!result.ok) throw result.error;
    const { status, headers, body, redirected } = result.answer;
    return { status, headers, body: body as Body, redirected };
  }
}
