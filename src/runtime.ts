import type { Dispatcher } from 'undici';
import { ZodError, type z } from 'zod';
import { type Clock, systemClock } from './clock.js';
import { type Connection, secretValues, toPublicConnection } from './connection/connection.js';
import { resolveBaseUrl } from './connection/connection-fields.js';
import type { ConnectionStore } from './connection/connection-store.js';
import { MemoryConnectionStore } from './connection/memory-store.js';
import { TokenRefresher } from './connection/token-refresher.js';
import {
  AuthError,
  CreditError,
  type CreditsSpent,
  type ErrorInit,
  type FieldIssue,
  InputError,
  isToolstepsError,
  OutputError,
  redactDeep,
  redactForeignError,
} from './errors.js';
import { sharedDispatcher } from './http/agent.js';
import { type BoundCredentials, createHttpClient, type HttpStats } from './http/http-client.js';
import { RateGate } from './http/rate-gate.js';
import type { RateLimitSnapshot } from './http/rate-limit.js';
import { defaultRetryOptions, type RetryOptions } from './http/retry-policy.js';
import type { Integration } from './integration.js';
import { type Logger, silentLogger } from './logger.js';
import { compileMapping, mapVariables, type VariableMapping } from './mapping.js';
import type { AnyStep, CreditEstimate } from './step.js';

export interface RuntimeOptions {
  store?: ConnectionStore;
  clock?: Clock;
  /** Defaults to the global fetch, looked up per request so test interceptors see every call. */
  fetch?: typeof globalThis.fetch;
  dispatcher?: Dispatcher;
  logger?: Logger;
  retry?: Partial<RetryOptions>;
  /** Refresh OAuth tokens this long before they expire. Default 5 minutes. */
  refreshMarginMs?: number;
  /** Longest wait the rate gate accepts before failing. Default 60 s. */
  maxRateLimitWaitMs?: number;
  /** Time limit of one HTTP attempt. Default 30 s. */
  requestTimeoutMs?: number;
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
  onProgress?: (done: number, total: number) => void;
  /**
   * Narrows what this invocation may touch, set per step or trigger by the
   * embedder (D: `{ projects: [...] }`). Steps refuse anything outside before sending.
   */
  constraints?: Readonly<Record<string, readonly string[]>>;
}

export interface InvocationMeta {
  step: string;
  connection: string;
  attempts: number;
  retries: number;
  durationMs: number;
  credits?: { estimated: CreditEstimate; charged: number | null };
  rateLimit?: RateLimitSnapshot;
  rateLimitWaits: number;
}

export interface InvocationResult<Output = unknown> {
  output: Output;
  variables: Record<string, unknown>;
  meta: InvocationMeta;
}

/**
 * A write whose answer could not be read still happened: say so, so nobody
 * sends it again. Reads can simply be retried.
 */
function writeTookEffect(step: AnyStep): ErrorInit {
  if (step.access === 'read') return {};
  return {
    outcome: 'already_done',
    hint: 'The provider accepted the request and it took effect, but its answer could not be read. Do not send it again; read the resource instead.',
  };
}

/** Keeps everything a step throws inside the error family: a stray ZodError is an unreadable answer. */
function asFamilyError(step: AnyStep, error: unknown): unknown {
  if (error instanceof ZodError) {
    const issues = zodIssues(error, 'answer');
    return new OutputError(
      `${step.id} got an answer it could not read: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}.`,
      issues,
      // A read whose answer was garbled may read better the next time; a write must not be sent again.
      { ...writeTookEffect(step), retryable: step.access === 'read' },
    );
  }
  return error;
}

/** A copy of the error with every secret redacted and what was spent attached. */
function scrubbed(error: unknown, secrets: string[], credits: CreditsSpent | undefined): unknown {
  if (isToolstepsError(error)) return error.redacted(secrets).withCredits(credits);
  return redactForeignError(error, secrets);
}

function zodIssues(error: z.ZodError, prefix = ''): FieldIssue[] {
  return error.issues.map((issue) => ({
    path: [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || '(root)',
    message: issue.message,
  }));
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
  private readonly dispatcher: Dispatcher;
  private readonly retry: RetryOptions;
  private readonly gates = new Map<string, RateGate>();
  private readonly maxRateLimitWaitMs: number;
  private readonly requestTimeoutMs: number;

  constructor(options: RuntimeOptions = {}) {
    this.store = options.store ?? new MemoryConnectionStore();
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger ?? silentLogger;
    this.fetchImpl = options.fetch ?? ((...args) => globalThis.fetch(...args));
    this.dispatcher = options.dispatcher ?? sharedDispatcher();
    this.retry = { ...defaultRetryOptions, ...options.retry };
    this.maxRateLimitWaitMs = options.maxRateLimitWaitMs ?? 60_000;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
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

  get httpDispatcher(): Dispatcher {
    return this.dispatcher;
  }

  /** The rate gate of one connection: shared by every invocation that uses it. */
  gateFor(connectionId: string): RateGate {
    let gate = this.gates.get(connectionId);
    if (!gate) {
      gate = new RateGate({ clock: this.clock, maxWaitMs: this.maxRateLimitWaitMs });
      this.gates.set(connectionId, gate);
    }
    return gate;
  }

  private async loadConnection(step: AnyStep, reference: string | Connection): Promise<Connection> {
    const connection = typeof reference === 'string' ? await this.store.get(reference) : reference;
    if (!connection) {
      throw new InputError(
        `No connection with id "${reference as string}". Add one with: toolsteps connections add.`,
        [{ path: 'connection', message: 'unknown connection id' }],
      );
    }
    if (connection.integration !== step.integration.id) {
      throw new InputError(
        `Step ${step.id} needs a ${step.integration.id} connection; "${connection.id}" is a ${connection.integration} connection.`,
        [{ path: 'connection', message: `expected a ${step.integration.id} connection` }],
      );
    }
    for (const secret of step.integration.connection.requiredSecrets) {
      if (!connection.secrets[secret]) {
        throw new AuthError(
          `Connection "${connection.id}" has no ${secret === 'apiKey' ? 'API key' : 'access token'}.`,
          {
            reauthorize: true,
          },
        );
      }
    }
    return connection;
  }

  async invoke<Output = unknown>(step: AnyStep, options: InvokeOptions): Promise<InvocationResult<Output>> {
    const started = this.clock.now();
    const parsed = step.input.safeParse(options.input);
    if (!parsed.success) {
      const issues = zodIssues(parsed.error);
      throw new InputError(
        `Invalid input for ${step.id}: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}.`,
        issues,
      );
    }
    const input = parsed.data;
    const mapping = options.replaceVariables
      ? { ...(options.variables ?? {}) }
      : { ...step.variables, ...(options.variables ?? {}) };
    compileMapping(mapping);

    const estimate = step.credits?.estimate(input);
    if (estimate && options.creditBudget !== undefined && estimate.max > options.creditBudget) {
      throw new CreditError(
        `${step.id} may cost ${Number.isFinite(estimate.max) ? `up to ${estimate.max} credits` : 'an unbounded number of credits'} (${step.credits?.basis}); the budget is ${options.creditBudget}. Nothing was sent.`,
        {
          code: 'credit_budget_exceeded',
          sent: false,
          context: {
            estimated: { min: estimate.min, max: Number.isFinite(estimate.max) ? estimate.max : null },
            budget: options.creditBudget,
          },
        },
      );
    }

    const integration = step.integration as Integration;
    let connection = await this.loadConnection(step, options.connection);
    const baseUrl = resolveBaseUrl(integration, connection);
    connection = await this.refresher.fresh(integration, connection);

    const credentials: BoundCredentials = {
      current: () => connection,
      ...(this.refresher.canRefresh(integration, connection)
        ? {
            refresh: async () => {
              connection = await this.refresher.fresh(
                integration,
                connection,
                connection.secrets.accessToken,
              );
              return connection;
            },
          }
        : {}),
    };
    const stats: HttpStats = { attempts: 0, retries: 0, rateLimitWaits: 0, rateLimit: undefined };
    const gate = this.gateFor(connection.id);
    const http = createHttpClient({
      integration,
      baseUrl,
      defaultQuery: integration.defaultQuery?.(connection.fields as never) ?? {},
      credentials,
      fetch: this.fetchImpl,
      dispatcher: this.dispatcher,
      clock: this.clock,
      gate,
      retry: this.retry,
      logger: this.logger,
      ...(options.signal ? { signal: options.signal } : {}),
      stepIdempotent: step.idempotent,
      requestTimeoutMs: this.requestTimeoutMs,
      stats,
    });
    let charged: number | null = null;
    const secrets = secretValues(connection);
    const creditsSoFar = () => (estimate ? { estimated: estimate, charged } : undefined);
    let raw: unknown;
    try {
      raw = await step.run(input, {
        http,
        connection: toPublicConnection(connection),
        signal: options.signal,
        log: this.logger,
        reportCredits: (amount) => {
          charged = (charged ?? 0) + amount;
        },
        progress: (done, total) => options.onProgress?.(done, total),
        sleep: (ms) => this.clock.sleep(ms, options.signal),
        constraints: options.constraints ?? {},
      });
    } catch (error) {
      throw scrubbed(asFamilyError(step, error), secrets, creditsSoFar());
    }

    const checked = step.output.safeParse(raw);
    if (!checked.success) {
      const issues = zodIssues(checked.error, 'output');
      throw scrubbed(
        new OutputError(
          `${step.id} got an answer its output schema does not accept: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}.`,
          issues,
          writeTookEffect(step),
        ),
        secrets,
        creditsSoFar(),
      );
    }
    // A provider that echoes our credentials back must not hand them to the agent.
    const output = redactDeep(checked.data, secrets) as Output;
    return {
      output,
      variables: mapVariables(output, mapping),
      meta: {
        step: step.id,
        connection: connection.id,
        attempts: stats.attempts,
        retries: stats.retries,
        durationMs: this.clock.now() - started,
        ...(estimate ? { credits: { estimated: estimate, charged } } : {}),
        ...(stats.rateLimit ? { rateLimit: stats.rateLimit } : {}),
        rateLimitWaits: stats.rateLimitWaits,
      },
    };
  }
}
