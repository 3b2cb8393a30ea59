import type { Dispatcher } from 'undici';
import { type Clock, systemClock } from '../clock.js';
import { type Connection, toPublicConnection } from '../connection/connection.js';
import { TokenRefresher } from '../connection/token-refresher.js';
import type { Coordinator } from '../coordination/coordinator.js';
import { DEFAULT_IDEMPOTENCY_TTL_MS, onceByKey } from '../coordination/idempotency-record.js';
import { LocalCoordinator } from '../coordination/local-coordinator.js';
import { SharedRateGate } from '../coordination/shared-rate-gate.js';
import { mentionsSecret } from '../errors/index.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../http/attempt.js';
import { dispatcherWire, sharedDispatcher } from '../http/dispatcher-wire.js';
import { addStats, lastRateLimit, NO_STATS, type RequestStats } from '../http/exchange.js';
import { fetchWire } from '../http/fetch-wire.js';
import { createHttpClient } from '../http/http-client.js';
import { nodeHttpWire } from '../http/node-http-wire.js';
import { RateGate } from '../http/rate-gate.js';
import type { Gate, RateLimitSnapshot } from '../http/rate-limit.js';
import { defaultRetryOptions, type RetryOptions } from '../http/retries.js';
import type { Wire } from '../http/wire.js';
import { type Logger, silentLogger } from '../logger.js';
import type { VariableMapping } from '../mapping/mapping.js';
import type { Integration } from '../step/define-integration.js';
import type { AnyStep, CreditEstimate, ProgressRecords } from '../step/define-step.js';
import type { ConnectionStore } from '../store/connections/connection-store.js';
import { MemoryConnectionStore } from '../store/connections/memory-connection-store.js';
import { withAuthHint } from './auth-hint.js';
import { type BoundConnection, bindConnection } from './bind-connection.js';
import { checkBudget } from './check-budget.js';
import { mapVariables } from './map-variables.js';
import { creditsSpent, runStep } from './run-step.js';
import { creditsToKeep, reserveSharedCredits, type SharedCreditBudget } from './shared-credit-budget.js';
import { validateInput } from './validate-input.js';
import { validateOutput } from './validate-output.js';

export interface RuntimeOptions {
  store?: ConnectionStore;
  clock?: Clock;
  /**
   * Sends the steps' requests through this fetch (a test interceptor, a
   * tracing wrapper) instead of straight on the dispatcher, at about three
   * times the transport's CPU. OAuth token requests always use a fetch: this
   * one, else the global one, looked up per request so interceptors see them.
   */
  fetch?: typeof globalThis.fetch;
  /**
   * The undici dispatcher of every request; default one shared keep-alive
   * Agent (see http/dispatcher-wire.ts), used directly (`dispatcher.request`). `null`
   * sends through the global fetch and its own dispatcher instead, which
   * needs no undici package loaded: the CLI's one-shot runs start faster.
   */
  dispatcher?: Dispatcher | null;
  /**
   * `'node-http'` sends the steps' requests on Node's own `node:http` and
   * `node:https` (one keep-alive agent per protocol for the process), which
   * loads no undici at all, neither the package nor Node's bundled one behind
   * `fetch`: meant for short-lived processes such as the CLI's one-shot
   * commands, where compiling undici costs more than the requests. It honours
   * no proxy variables, and it wins over `fetch` and `dispatcher` for the
   * steps' requests. OAuth token requests still go through `fetch`, on
   * `dispatcher` when one is given, else on fetch's own global dispatcher
   * (no undici package loaded). Default: the dispatcher, or `fetch` when given.
   */
  transport?: 'node-http';
  logger?: Logger;
  retry?: Partial<RetryOptions>;
  /** Refresh OAuth tokens this long before they expire. Default 5 minutes. */
  refreshMarginMs?: number;
  /** Longest wait the rate gate accepts before failing. Default 60 s. */
  maxRateLimitWaitMs?: number;
  /** Time limit of one HTTP attempt. Default 30 s. */
  requestTimeoutMs?: number;
  /** Most bytes of one answer's body; a larger answer fails with ResponseTooLargeError. Default 32 MiB. */
  maxResponseBytes?: number;
  /**
   * Where rules shared by several workers live (`openCoordinator()`): with a
   * Redis coordinator, every connection's rate gate is one budget for all
   * workers. Default: in-process, each runtime keeps its own gates.
   */
  coordination?: Coordinator;
}

export interface InvokeOptions {
  /** A connection id in the store, or a connection object. */
  connection: string | Connection;
  input: unknown;
  /** Extra variables, added to (or, with `replaceVariables`, replacing) the step's defaults. */
  variables?: VariableMapping;
  replaceVariables?: boolean;
  /** Most credits this invocation may spend; a call whose worst case is higher is refused before sending. */
  creditBudget?: number;
  signal?: AbortSignal;
  /** Long runs (bulk batches, pages): `done` of `total`, and the records that is when the step can say. */
  onProgress?: (done: number, total: number, records?: ProgressRecords) => void;
  /**
   * Narrows what this invocation may touch, set per step or trigger by the
   * embedder (D: `{ projects: [...] }`). Steps refuse anything outside before sending.
   */
  constraints?: Readonly<Record<string, readonly string[]>>;
  /**
   * A credit budget this invocation shares with others (with a Redis
   * coordinator, on every worker): its worst case is reserved atomically
   * before sending, and what it did not spend is given back.
   */
  sharedCreditBudget?: SharedCreditBudget;
  /**
   * Runs the invocation once per key across every worker sharing the
   * coordinator (bulk retries, a create an agent may send twice): a repeat
   * gets the recorded result, with `meta.fromIdempotencyRecord`.
   */
  idempotencyKey?: string;
  /** How long the record of an idempotency key is kept. Default 24 h. */
  idempotencyTtlMs?: number;
}

export interface InvocationMeta {
  step: string;
  connection: string;
  attempts: number;
  retries: number;
  durationMs: number;
  credits?: { estimated: CreditEstimate; charged: number | null } | undefined;
  rateLimit?: RateLimitSnapshot | undefined;
  rateLimitWaits: number;
  /** True when this result is the recorded one of an earlier invocation with the same idempotency key. */
  fromIdempotencyRecord?: boolean;
}

export interface InvocationResult<Output = unknown> {
  output: Output;
  variables: Record<string, unknown>;
  meta: InvocationMeta;
}

/** The dispatcher of fetch's requests: none (fetch's own) when asked, or when node:http carries the steps'. */
function runtimeDispatcher(options: RuntimeOptions): Dispatcher | undefined {
  if (options.dispatcher !== undefined) return options.dispatcher ?? undefined;
  // Making the shared Agent would load the undici package that the node:http transport is there to avoid.
  return options.transport === 'node-http' ? undefined : sharedDispatcher();
}

/** How the steps' requests reach the provider: node:http when asked, a given fetch, else the dispatcher. */
function runtimeWire(
  options: RuntimeOptions,
  fetchImpl: typeof globalThis.fetch,
  dispatcher: Dispatcher | undefined,
): Wire {
  if (options.transport === 'node-http') return nodeHttpWire();
  return options.fetch || !dispatcher ? fetchWire(fetchImpl, dispatcher) : dispatcherWire(dispatcher);
}

/**
 * The invocation pipeline, the same for the library, the CLI and the demo:
 * validate input -> bind connection (refresh if near expiry) -> run ->
 * validate output -> map variables.
 */
export class Runtime {
  readonly store: ConnectionStore;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly refresher: TokenRefresher;
  private readonly fetchImpl: typeof globalThis.fetch;
  private readonly dispatcher: Dispatcher | undefined;
  /** How the steps' requests reach the provider. */
  private readonly wire: Wire;
  private readonly retry: RetryOptions;
  private readonly gates = new Map<string, Gate>();
  readonly coordination: Coordinator | undefined;
  private localCoordination: Coordinator | undefined;
  private readonly maxRateLimitWaitMs: number;
  private readonly requestTimeoutMs: number;
  private readonly maxResponseBytes: number;

  constructor(options: RuntimeOptions = {}) {
    this.store = options.store ?? new MemoryConnectionStore();
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger ?? silentLogger;
    this.fetchImpl = options.fetch ?? ((...args) => globalThis.fetch(...args));
    this.dispatcher = runtimeDispatcher(options);
    this.wire = runtimeWire(options, this.fetchImpl, this.dispatcher);
    this.retry = { ...defaultRetryOptions, ...options.retry };
    this.maxRateLimitWaitMs = options.maxRateLimitWaitMs ?? 60_000;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.coordination = options.coordination;
    this.refresher = new TokenRefresher({
      store: this.store,
      clock: this.clock,
      fetch: this.fetchImpl,
      dispatcher: this.dispatcher,
      logger: this.logger,
      marginMs: options.refreshMarginMs ?? 5 * 60_000,
      timeoutMs: this.requestTimeoutMs,
    });
  }

  get fetch(): typeof globalThis.fetch {
    return this.fetchImpl;
  }

  get httpDispatcher(): Dispatcher | undefined {
    return this.dispatcher;
  }

  /**
   * The rate gate of one connection: shared by every invocation that uses
   * it, and with a shared coordinator by every worker.
   */
  gateFor(connectionId: string): Gate {
    let gate = this.gates.get(connectionId);
    if (!gate) {
      const settings = { clock: this.clock, maxWaitMs: this.maxRateLimitWaitMs, logger: this.logger };
      gate =
        this.coordination?.mode === 'redis'
          ? new SharedRateGate(this.coordination, `connection:${connectionId}`, settings)
          : new RateGate(settings);
      this.gates.set(connectionId, gate);
    }
    return gate;
  }

  /** The transport of one invocation, bound to its connection; `spent` hears what each request cost. */
  private transport(
    step: AnyStep,
    bound: BoundConnection,
    signal: AbortSignal | undefined,
    spent: RequestStats[],
  ) {
    const integration = step.integration as Integration;
    const connection = bound.credentials.current();
    return createHttpClient({
      integration,
      baseUrl: bound.baseUrl,
      defaultQuery: integration.defaultQuery?.(connection.fields as never) ?? {},
      credentials: bound.credentials,
      secrets: bound.secrets,
      wire: this.wire,
      clock: this.clock,
      gate: this.gateFor(connection.id),
      retry: this.retry,
      logger: this.logger,
      signal,
      stepIdempotent: step.idempotent,
      requestTimeoutMs: this.requestTimeoutMs,
      maxResponseBytes: this.maxResponseBytes,
      onStats: (stats) => spent.push(stats),
    });
  }

  /**
   * validateInput -> checkBudget -> bindConnection -> runStep -> validateOutput
   * -> mapVariables, each a function of its own in `runtime/`.
   */
  async invoke<Output = unknown>(step: AnyStep, options: InvokeOptions): Promise<InvocationResult<Output>> {
    if (options.idempotencyKey === undefined) return this.invokeOnce<Output>(step, options);
    const { result, recorded } = await onceByKey(
      this.coordinator,
      `${step.id}:${options.idempotencyKey}`,
      options.idempotencyTtlMs ?? DEFAULT_IDEMPOTENCY_TTL_MS,
      () => this.invokeOnce<Output>(step, options),
      this.logger,
    );
    return recorded ? { ...result, meta: { ...result.meta, fromIdempotencyRecord: true } } : result;
  }

  /** The coordinator of shared rules: the configured one, else this process's own. */
  private get coordinator(): Coordinator {
    this.localCoordination ??= this.coordination ?? new LocalCoordinator();
    return this.localCoordination;
  }

  private async invokeOnce<Output>(step: AnyStep, options: InvokeOptions): Promise<InvocationResult<Output>> {
    const validated = validateInput(step, options);
    const estimate = checkBudget(step, validated.input, options.creditBudget);
    const reservation = await reserveSharedCredits(
      this.coordinator,
      step,
      estimate,
      options.sharedCreditBudget,
      this.logger,
    );
    try {
      const result = await this.bindAndRun<Output>(step, options, validated, estimate);
      await reservation?.settle(
        creditsToKeep(estimate as CreditEstimate, result.meta.credits?.charged ?? null),
      );
      return result;
    } catch (error) {
      await reservation?.settle(creditsToKeep(estimate as CreditEstimate, null, error));
      throw error;
    }
  }

  private async bindAndRun<Output>(
    step: AnyStep,
    options: InvokeOptions,
    { input, mapping }: ReturnType<typeof validateInput>,
    estimate: CreditEstimate | undefined,
  ): Promise<InvocationResult<Output>> {
    const started = this.clock.now();
    const integration = step.integration as Integration;
    const bound = await withAuthHint(integration, () =>
      bindConnection(step, options.connection, { store: this.store, refresher: this.refresher }),
    );
    const spent: RequestStats[] = [];
    const { raw, charged } = await withAuthHint(integration, () =>
      runStep(
        step,
        input,
        {
          http: this.transport(step, bound, options.signal, spent),
          connection: toPublicConnection(bound.credentials.current()),
          signal: options.signal,
          log: this.logger,
          progress: (done, total, records) => options.onProgress?.(done, total, records),
          sleep: (ms) => this.clock.sleep(ms, options.signal),
          constraints: options.constraints ?? {},
        },
        { estimate, secrets: bound.secrets },
      ),
    );
    const stats = spent.reduce(addStats, NO_STATS);
    const secrets = bound.secrets();
    // A secret can reach the output only through an answer that quoted it or an input that held it.
    const mayHoldSecret = stats.secretEchoes > 0 || mentionsSecret(JSON.stringify(input) ?? '', secrets);
    const output = validateOutput(step, raw, {
      secrets,
      redact: mayHoldSecret,
      credits: creditsSpent(estimate, charged),
    }) as Output;
    return {
      output,
      variables: mapVariables(output, mapping),
      meta: {
        step: step.id,
        connection: bound.credentials.current().id,
        attempts: stats.attempts,
        retries: stats.retries,
        durationMs: this.clock.now() - started,
        credits: creditsSpent(estimate, charged),
        rateLimit: lastRateLimit(stats),
        rateLimitWaits: stats.rateLimitWaits,
      },
    };
  }
}
