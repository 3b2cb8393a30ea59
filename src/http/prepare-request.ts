import { joinUrl } from '../connection/base-url.js';
import type { Connection } from '../connection/connection.js';
import { InputError } from '../errors/index.js';
import type { HttpMethod, Integration } from '../step/define-integration.js';
import type { Outgoing } from './exchange.js';

const IDEMPOTENT_METHODS = new Set<HttpMethod>(['GET', 'HEAD', 'PUT', 'DELETE']);

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

/**
 * The base URL's scope: requests and credentialed redirects stay under its
 * path, not just its origin, since a gateway or the sandbox serves other
 * tenants' paths on the same host.
 */
export function baseScope(baseUrl: string): (url: URL) => boolean {
  const base = new URL(baseUrl);
  const basePath = `${base.pathname.replace(/\/+$/, '')}/`;
  return (url) => url.origin === base.origin && url.pathname.startsWith(basePath);
}

/**
 * Builds what goes on the wire for a step's request, with the credentials of
 * the connection as it is now; refuses (sending nothing) a path that
 * resolves outside the base URL.
 */
export function prepareRequest(
  request: HttpRequest,
  connection: Connection,
  options: PrepareOptions,
): Outgoing {
  const { integration } = options;
  const url = joinUrl(options.baseUrl, request.path, { ...options.defaultQuery, ...request.query });
  const path = request.path.split('?')[0] ?? '';
  const where = `${request.method} ${path}`;
  if (!baseScope(options.baseUrl)(url)) {
    throw new InputError(`Refused ${where}: it resolves outside the connection's base URL.`, [
      { path: 'path', message: 'resolves outside the base URL' },
    ]);
  }
  const body =
    request.rawBody?.bytes ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
  const headers: Record<string, string> = {
    accept: 'application/json',
    'user-agent': 'toolsteps/0.1',
    ...integration.defaultHeaders,
    ...request.headers,
  };
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
  };
}
