import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { isLoopbackHost } from '../server/http-guard.js';
import { ApiRefusal } from './api-refusal.js';

/**
 * Which browser origins may call the API. Only the listed ones get CORS
 * headers, and a request that names any other origin is refused before it
 * is read: this is about which pages may spend a token. No cookie
 * authorises a request: the one cookie the API sets (a sign-in's, Path the
 * OAuth callback) only proves the browser, so allowed origins may send and
 * receive it (`Access-Control-Allow-Credentials`, with their exact origin,
 * never `*`) and the page's start of a sign-in can store it. A request with
 * no Origin is a server or a tool, and passes.
 * A loopback-bound server also answers only loopback Host names, so a
 * rebound DNS name cannot reach it as "same origin".
 */
export class CorsPolicy {
  private readonly allowed: ReadonlySet<string>;

  constructor(
    allowedOrigins: readonly string[],
    private readonly boundHost: string,
  ) {
    this.allowed = new Set(allowedOrigins.map((origin) => new URL(origin).origin));
  }

  /** The request's origin when allowed (or none was sent); refuses a foreign one. */
  check(request: IncomingMessage): string | undefined {
    if (isLoopbackHost(this.boundHost)) {
      const host = hostnameOf(request.headers.host ?? '');
      if (!host || !isLoopbackHost(host)) throw new ApiRefusal(403, 'forbidden', 'Host not allowed.');
    }
    const origin = request.headers.origin;
    if (origin === undefined) return undefined;
    if (!this.allowed.has(origin)) throw new ApiRefusal(403, 'origin_not_allowed', 'Origin not allowed.');
    return origin;
  }

  isAllowed(origin: string): boolean {
    return this.allowed.has(origin);
  }

  /** The headers that let the allowed page read the answer (and store a sign-in's cookie from it). */
  headers(origin: string | undefined): OutgoingHttpHeaders {
    if (!origin) return {};
    return {
      'access-control-allow-origin': origin,
      'access-control-allow-credentials': 'true',
      vary: 'Origin',
    };
  }

  /** The answer to a preflight from an allowed origin. */
  preflightHeaders(origin: string): OutgoingHttpHeaders {
    return {
      ...this.headers(origin),
      'access-control-allow-methods': 'GET, POST, DELETE',
      'access-control-allow-headers': 'authorization, content-type',
      'access-control-max-age': '600',
    };
  }
}

function hostnameOf(value: string): string | undefined {
  try {
    return new URL(`http://${value}`).hostname;
  } catch {
    return undefined;
  }
}
