// A request on its way: what each stage passes on (Outgoing), how it ended (Exchange) and what it
// cost (RequestStats), and how a step's HttpRequest becomes the first Outgoing (prepareRequest).

import { InputError } from '../errors/index.js';
import { joinUrl } from '../model/base-url.js';
import type { Connection } from '../model/connection.js';
import type { HttpMethod, Integration } from '../model/define-integration.js';
import type { RateLimitSnapshot } from '../model/rate-limit.js';

/** What one request cost, returned with its answer (or its error) instead of written into shared state. */
export interface RequestStats {
  /** Fetches made: first tries, retries, refresh replays and redirect hops. */
  attempts: number;
  retries: number;
  /** Times the rate gate held this request back. */
  rateLimitWaits: number;
  /** Response body bytes read. */
  bytes: number;
  /**
   * Answers whose body or headers may quote a secret of the connection (an
   * echo of our request, say): only then is the step's output walked to
   * redact them, instead of walking every output of every call.
   */
  secretEchoes: number;
  /** What each answer's rate-limit headers said, in order (undefined where they said nothing). */
  answers: readonly (RateLimitSnapshot | undefined)[];
}

export const NO_STATS: RequestStats = Object.freeze({
  attempts: 0,
  retries: 0,
  rateLimitWaits: 0,
  bytes: 0,
  secretEchoes: 0,
  answers: Object.freeze([]),
});

export function addStats(a: RequestStats, b: Partial<RequestStats>): RequestStats {
  return {
    attempts: a.attempts + (b.attempts ?? 0),
    retries: a.retries + (b.retries ?? 0),
    rateLimitWaits: a.rateLimitWaits + (b.rateLimitWaits ?? 0),
    bytes: a.bytes + (b.bytes ?? 0),
    secretEchoes: a.secretEchoes + (b.secretEchoes ?? 0),
    answers: [...a.answers, ...(b.answers ?? [])],
  };
}

/** The latest rate-limit state the answers reported. */
export function lastRateLimit(stats: RequestStats): RateLimitSnapshot | undefined {
  return stats.answers.findLast((snapshot) => snapshot !== undefined);
}

/** An answer as the transport read it: status, headers, and the body parsed as JSON when it says it is JSON. */
export interface Answer<Body = unknown> {
  status: number;
  headers: Headers;
  body: Body;
  /** The method of the hop that got this answer (a 303 turns a POST into a GET). */
  method: string;
  /** True when the answer came from where a redirect pointed, not from the URL we asked. */
  redirected: boolean;
}

/** How a request ended: an answer or an error, and in both cases what it cost. */
export type Exchange<Body = unknown> =
  | { ok: true; answer: Answer<Body>; stats: RequestStats }
  | { ok: false; error: unknown; stats: RequestStats };

/**
 * One hop on the wire: the URL, method, headers and serialized body of a
 * single fetch. `where` names the request as the step made it, for messages.
 */
export interface Outgoing {
  method: HttpMethod;
  url: URL;
  /** Headers of the request itself; they follow a redirect. */
  headers: Record<string, string>;
  /** Credential headers, kept apart so a redirect out of the base URL can drop them. */
  credentials: Record<string, string>;
  /** JSON text, or the raw bytes of a binary upload. */
  body: string | Uint8Array | undefined;
  /** `METHOD /path` as the step asked, for messages and logs. */
  where: string;
  /** The step's path without its query, and the operation it named, for the error classifier. */
  path: string;
  operation: string | undefined;
  /** Whether sending it twice leaves the provider as sending it once: decides replays. */
  idempotent: boolean;
  /** Time limit of one fetch, headers and body. */
  timeoutMs: number;
  /** Most bytes of answer body read before the answer is refused. */
  maxResponseBytes: number;
  /** Hand a successful answer over as its bytes, whatever its media type (a file, not an API answer). */
  asBytes?: boolean;
  /**
   * Attempts sent so far for the step's request, shared by its retries,
   * refresh replay and redirect hops: the attempt span's `http.request.resend_count`.
   */
  sends?: { count: number } | undefined;
  /**
   * The invocation this request belongs to, when the stages were prepared
   * once for a step and connection and serve every invocation: what differs
   * per invocation travels with the request, and takes the place of the
   * stage's own options of the same names.
   */
  call?: CallScope | undefined;
}

/** What one invocation brings to stages prepared once: its signal, the connection as it is now, and its secrets. */
export interface CallScope {
  /** The caller's signal: aborting it stops the request as `aborted`, not as a timeout. */
  signal: AbortSignal | undefined;
  /** Every secret the connection has held during the invocation (a refreshed token's predecessor too). */
  secrets: () => string[];
  /** Removes those secrets from text that may quote them. */
  redact: (text: string) => string;
  connection: () => Connection;
  /** Whether a 401 can still be answered by a refresh. */
  canRefresh: boolean;
}

/** A stage of the transport: sends one request (however it likes) and says how it ended. */
export type Send = (outgoing: Outgoing) => Promise<Exchange>;

/** 3xx other than 304 Not Modified: the answer points elsewhere. */
export function isRedirect(status: number): boolean {
  return status >= 300 && status < 400 && status !== 304;
}

const IDEMPOTENT_METHODS = new Set<HttpMethod>(['GET', 'HEAD', 'PUT', 'DELETE']);

/** A provider request as a step handler states it: relative to the connection's base URL, with no auth of its own. */
export interface HttpRequest {
  method: HttpMethod;
  /** Provider path under the base URL, starting with `/`, already guarded when it came from a caller. */
  path: string;
  query?: Record<string, string | number | undefined>;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is instead of a JSON body: a file upload, with its media type. */
  rawBody?: { bytes: Uint8Array; contentType: string };
  headers?: Record<string, string>;
  /** Overrides the method-based default (GET, HEAD, PUT, DELETE are idempotent). */
  idempotent?: boolean;
  /** Integration-defined auth shape for this operation. */
  authVariant?: string;
  /** Integration-defined name of what this request does; handed to the integration's error classifier. */
  operation?: string;
  /** Per-attempt time limit. */
  timeoutMs?: number;
  /** Most bytes of answer this request accepts; defaults to the runtime's `maxResponseBytes`. */
  maxResponseBytes?: number;
}

export interface PrepareOptions {
  integration: Integration;
  baseUrl: string;
  defaultQuery: Record<string, string | undefined>;
  /** The step's own declaration; a POST search is idempotent, a POST create is not. */
  stepIdempotent: boolean;
  requestTimeoutMs: number;
  maxResponseBytes: number;
}

/** The headers every request of an integration starts from, before the request's own; built once per integration. */
function fixedHeaders(integration: Integration): Readonly<Record<string, string>> {
  let headers = fixedHeadersOf.get(integration);
  if (!headers) {
    headers = Object.freeze({
      accept: 'application/json',
      'user-agent': 'toolsteps/0.1',
      ...integration.defaultHeaders,
    });
    fixedHeadersOf.set(integration, headers);
  }
  return headers;
}

const fixedHeadersOf = new WeakMap<Integration, Readonly<Record<string, string>>>();

/**
 * The base URL's scope: requests and credentialed redirects stay under its
 * path, not just its origin, since a gateway or the sandbox serves other
 * tenants' paths on the same host.
 */
export function baseScope(baseUrl: string): (url: URL) => boolean {
  let scope = scopes.get(baseUrl);
  if (!scope) {
    const base = new URL(baseUrl);
    const { origin } = base;
    const basePath = `${base.pathname.replace(/\/+$/, '')}/`;
    scope = (url) => url.origin === origin && url.pathname.startsWith(basePath);
    // A process serving many connections forgets them all rather than grow without bound.
    if (scopes.size >= SCOPES_LIMIT) scopes.clear();
    scopes.set(baseUrl, scope);
  }
  return scope;
}

/** Each base URL's scope, parsed once: every request of every invocation asks for its connection's. */
const scopes = new Map<string, (url: URL) => boolean>();
const SCOPES_LIMIT = 1000;

/**
 * Builds what goes on the wire for a step's request, with the credentials of
 * the connection as it is now; refuses (sending nothing) a path that
 * resolves outside the base URL.
 */
export function prepareRequest(
  request: HttpRequest,
  connection: Connection,
  options: PrepareOptions,
  sends?: { count: number },
  call?: CallScope,
): Outgoing {
  const { integration } = options;
  const url = joinUrl(options.baseUrl, request.path, options.defaultQuery, request.query);
  const path = request.path.split('?')[0] ?? '';
  const where = `${request.method} ${path}`;
  if (!baseScope(options.baseUrl)(url)) {
    throw new InputError(`Refused ${where}: it resolves outside the connection's base URL.`, [
      { path: 'path', message: 'resolves outside the base URL' },
    ]);
  }
  const body =
    request.rawBody?.bytes ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
  const headers: Record<string, string> = { ...fixedHeaders(integration), ...request.headers };
  if (body !== undefined) headers['content-type'] = request.rawBody?.contentType ?? 'application/json';
  const auth =
    request.authVariant === undefined ? { connection } : { connection, variant: request.authVariant };
  return {
    method: request.method,
    url,
    headers,
    credentials: integration.authHeaders(auth),
    body,
    where,
    path,
    operation: request.operation,
    idempotent:
      request.idempotent ??
      (IDEMPOTENT_METHODS.has(request.method) || (request.method === 'POST' && options.stepIdempotent)),
    timeoutMs: request.timeoutMs ?? options.requestTimeoutMs,
    maxResponseBytes: request.maxResponseBytes ?? options.maxResponseBytes,
    sends,
    call,
  };
}
