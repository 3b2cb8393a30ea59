import pRetry from 'p-retry';
import type { Dispatcher } from 'undici';
import { joinUrl } from '../base-url.js';
import type { Clock } from '../clock.js';
import type { Connection } from '../connection/connection.js';
import {
  AbortedError,
  AuthError,
  InputError,
  isToolstepsError,
  ProviderError,
  redactSecrets,
  type ToolstepsError,
} from '../errors.js';
import type { HttpMethod, Integration } from '../integration.js';
import type { Logger } from '../logger.js';
import { mayHaveLanded } from '../outcome.js';
import { classifyException } from './classify-exception.js';
import { classifyFailure } from './classify-response.js';
import type { RateGate } from './rate-gate.js';
import type { RateLimitSnapshot } from './rate-limit.js';
import { decideRetry, type RetryOptions } from './retry-policy.js';

export interface HttpRequest {
  method: HttpMethod;
  /** Provider path under the base URL, starting with `/`, already guarded when it came from a caller. */
  path: string;
  query?: Record<string, string | number | undefined>;
  /** Sent as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Overrides the method-based default (GET, HEAD, PUT, DELETE are idempotent). */
  idempotent?: boolean;
  /** Integration-defined auth shape for this operation. */
  authVariant?: string;
  /** Integration-defined name of what this request does; handed to the integration's error classifier. */
  operation?: string;
  /** Per-attempt time limit. */
  timeoutMs?: number;
}

export interface HttpResponse<Body = unknown> {
  status: number;
  headers: Headers;
  body: Body;
}

export interface HttpClient {
  request<Body = unknown>(request: HttpRequest): Promise<HttpResponse<Body>>;
  readonly baseUrl: string;
}

/** The connection a client sends as, and how to renew it. */
export interface BoundCredentials {
  current(): Connection;
  /** Present when the connection can be refreshed: forces a refresh and returns the new connection. */
  refresh?: () => Promise<Connection>;
}

export interface HttpStats {
  attempts: number;
  retries: number;
  /** Times this invocation's requests waited at the rate gate (not other invocations'). */
  rateLimitWaits: number;
  rateLimit: RateLimitSnapshot | undefined;
}

export interface HttpClientOptions {
  integration: Integration;
  baseUrl: string;
  defaultQuery: Record<string, string | undefined>;
  credentials: BoundCredentials;
  fetch: typeof globalThis.fetch;
  dispatcher: Dispatcher;
  clock: Clock;
  gate: RateGate;
  retry: RetryOptions;
  logger: Logger;
  signal?: AbortSignal;
  /** The step's own declaration; a POST search is idempotent, a POST create is not. */
  stepIdempotent: boolean;
  requestTimeoutMs: number;
  stats: HttpStats;
}

const IDEMPOTENT_METHODS = new Set<HttpMethod>(['GET', 'HEAD', 'PUT', 'DELETE']);

const MAX_REDIRECTS = 5;

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const { integration, credentials, clock, gate, logger, stats } = options;

  const redact = (text: string) =>
    redactSecrets(text, Object.values(credentials.current().secrets) as (string | undefined)[]);

  function isIdempotent(request: HttpRequest): boolean {
    if (request.idempotent !== undefined) return request.idempotent;
    return IDEMPOTENT_METHODS.has(request.method) || (request.method === 'POST' && options.stepIdempotent);
  }

  const base = new URL(options.baseUrl);
  // Requests and credentialed redirects stay under the base URL's path, not just its origin:
  // a gateway or the sandbox serves other tenants' paths on the same host.
  const basePath = `${base.pathname.replace(/\/+$/, '')}/`;
  const underBase = (url: URL) => url.origin === base.origin && url.pathname.startsWith(basePath);

  /**
   * A 401 the client cannot answer with a refresh is final: the connection needs
   * re-authorisation. An integration that explained the 401 itself (a deactivated
   * key, say) keeps its words; our generic one says which credential was refused.
   */
  function withoutRefreshAdvice(error: ToolstepsError, explained: boolean): ToolstepsError {
    if (!(error instanceof AuthError) || error.status !== 401 || credentials.refresh) return error;
    const connection = credentials.current();
    const advice = explained
      ? ''
      : ` The ${connection.kind === 'api_key' ? 'API key' : 'token'} of connection "${connection.id}" was not accepted; check it, or reconnect.`;
    return new AuthError(`${error.message}${advice}`, { ...error.asInit(), status: 401, reauthorize: true });
  }

  async function attempt(request: HttpRequest): Promise<HttpResponse> {
    let url = joinUrl(options.baseUrl, request.path, { ...options.defaultQuery, ...request.query });
    const where = `${request.method} ${request.path.split('?')[0]}`;
    if (!underBase(url)) {
      throw new InputError(`Refused ${where}: it resolves outside the connection's base URL.`, [
        { path: 'path', message: 'resolves outside the base URL' },
      ]);
    }
    stats.rateLimitWaits += await gate.acquire(options.signal);
    // The gate counts this request until its first answer; later redirect hops only teach it.
    let answered = false;
    const hear = (snapshot: ReturnType<NonNullable<typeof integration.readRateLimit>>) => {
      if (answered) gate.learn(snapshot);
      else gate.observe(snapshot);
      answered = true;
      if (snapshot) stats.rateLimit = snapshot;
    };
    let method: string = request.method;
    let body = request.body === undefined ? undefined : JSON.stringify(request.body);
    let withCredentials = true;
    try {
      for (let hop = 0; ; hop += 1) {
        const headers: Record<string, string> = {
          accept: 'application/json',
          'user-agent': 'toolsteps/0.1',
          ...integration.defaultHeaders,
          ...request.headers,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(withCredentials
            ? integration.authHeaders({
                connection: credentials.current(),
                ...(request.authVariant ? { variant: request.authVariant } : {}),
              })
            : {}),
        };
        const timeout = AbortSignal.timeout(request.timeoutMs ?? options.requestTimeoutMs);
        const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
        const started = clock.now();
        stats.attempts += 1;
        let response: Response;
        let parsedBody: unknown;
        try {
          response = await options.fetch(url, {
            method,
            headers,
            ...(body === undefined ? {} : { body }),
            redirect: 'manual',
            signal,
            dispatcher: options.dispatcher,
          } as RequestInit);
          hear(integration.readRateLimit?.(response.headers, clock.now()));
          const isRedirect = response.status >= 300 && response.status < 400 && response.status !== 304;
          if (isRedirect) await response.body?.cancel();
          // A body cut off mid-way fails here, inside the same classification as the request.
          else parsedBody = await readBody(response);
        } catch (thrown) {
          const error = classifyException(
            thrown,
            where,
            { userAborted: Boolean(options.signal?.aborted), timedOut: timeout.aborted },
            redact,
          );
          logger.debug('request failed', { method, path: url.pathname, code: error.code });
          throw error;
        }
        logger.debug('response', {
          method,
          path: url.pathname,
          status: response.status,
          durationMs: clock.now() - started,
        });

        const location = response.headers.get('location');
        if (response.status >= 300 && response.status < 400 && response.status !== 304 && location) {
          if (hop >= MAX_REDIRECTS)
            throw new ProviderError(`${where} redirected more than ${MAX_REDIRECTS} times.`);
          const next = new URL(location, url);
          if (!underBase(next)) {
            // Credentials never follow a redirect out of the base URL; only a read may follow at all.
            if (method !== 'GET' && method !== 'HEAD') {
              throw new ProviderError(
                `${where} was redirected outside the connection's base URL (${next.origin}); not followed.`,
                { status: response.status, sent: true, context: { location: next.origin } },
              );
            }
            withCredentials = false;
          }
          if (
            response.status === 303 ||
            ((response.status === 301 || response.status === 302) && method === 'POST')
          ) {
            method = 'GET';
            body = undefined;
          }
          url = next;
          continue;
        }

        if (response.ok) return { status: response.status, headers: response.headers, body: parsedBody };

        const failure = {
          status: response.status,
          headers: response.headers,
          body: parsedBody,
          method,
          path: request.path.split('?')[0] ?? '',
          operation: request.operation,
        };
        const rawParsed = integration.parseError?.(parsedBody) ?? {};
        // A provider may echo a token back anywhere in its error body.
        const parsed = {
          ...rawParsed,
          // Our messages add their own full stop after the provider's words.
          ...(rawParsed.message ? { message: redact(rawParsed.message).trim().replace(/\.+$/, '') } : {}),
          ...(rawParsed.providerCode ? { providerCode: redact(rawParsed.providerCode) } : {}),
          ...(rawParsed.fields
            ? {
                fields: rawParsed.fields.map((field) => ({
                  path: redact(field.path),
                  message: redact(field.message),
                })),
              }
            : {}),
        };
        const specific = integration.classifyError?.(failure, parsed);
        throw withoutRefreshAdvice(
          specific ?? classifyFailure(failure, parsed, clock.now()),
          specific !== undefined,
        );
      }
    } finally {
      if (!answered) gate.abandon();
    }
  }

  async function withRetries(request: HttpRequest): Promise<HttpResponse> {
    const idempotent = isIdempotent(request);
    // Set once an attempt fails in a way that may have reached the provider, so a
    // replay's answer (a 404 on a DELETE, say) can be read as "already done".
    let earlierAttemptMayHaveLanded = false;
    try {
      return await pRetry(
        async () => {
          try {
            return await attempt(request);
          } catch (error) {
            const seen = earlierAttemptMayHaveLanded && isToolstepsError(error) ? error.asReplayed() : error;
            if (mayHaveLanded(seen)) earlierAttemptMayHaveLanded = true;
            throw seen;
          }
        },
        {
          retries: options.retry.maxRetries,
          // p-retry counts attempts; the waiting is ours, on the injectable clock, so tests never sleep.
          minTimeout: 0,
          factor: 1,
          ...(options.signal ? { signal: options.signal } : {}),
          shouldRetry: async ({ error, retriesConsumed }) => {
            if (!isToolstepsError(error)) return false;
            const decision = decideRetry(error, retriesConsumed + 1, idempotent, options.retry);
            if (!decision.retry) return false;
            logger.info('retrying', {
              method: request.method,
              path: request.path.split('?')[0],
              code: error.code,
              status: error.status,
              delayMs: decision.delayMs,
            });
            stats.retries += 1;
            await clock.sleep(decision.delayMs, options.signal);
            return true;
          },
        },
      );
    } catch (error) {
      if (isToolstepsError(error)) {
        throw !idempotent && mayHaveLanded(error) ? error.asPossiblyApplied() : error;
      }
      if (options.signal?.aborted)
        throw new AbortedError(`${request.method} ${request.path} was aborted by the caller.`);
      throw error;
    }
  }

  return {
    baseUrl: options.baseUrl,
    async request<Body>(request: HttpRequest): Promise<HttpResponse<Body>> {
      try {
        return (await withRetries(request)) as HttpResponse<Body>;
      } catch (error) {
        if (!(error instanceof AuthError) || error.status !== 401 || !credentials.refresh) throw error;
        const connection = credentials.current();
        // A 401 means the provider did not act on the request, so one replay with a fresh token is safe.
        await credentials.refresh();
        try {
          return (await withRetries(request)) as HttpResponse<Body>;
        } catch (second) {
          if (second instanceof AuthError && second.status === 401) {
            throw reauthorize(second, connection);
          }
          throw second;
        }
      }
    },
  };
}

function reauthorize(error: ToolstepsError, connection: Connection): AuthError {
  return new AuthError(
    `${error.message} The token was refreshed and still refused: connection "${connection.id}" needs re-authorisation (run: toolsteps connect ${connection.integration} --id ${connection.id}).`,
    { ...error.asInit(), reauthorize: true },
  );
}
