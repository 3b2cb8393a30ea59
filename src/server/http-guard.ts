import type { IncomingMessage } from 'node:http';
import { timingSafeEqualText } from '../values/timing-safe-equal.js';
import { bearerToken } from './bearer-token.js';
import { HostOriginGuard } from './host-origin-guard.js';

// Where the MCP server, the sandbox and the builder have long found it.
export { isLoopbackHost } from './host-origin-guard.js';

export interface HttpGuardOptions {
  /** The address the server is bound to. */
  host: string;
  /** The bearer token every request must carry; required when `host` is not loopback. */
  token?: string | undefined;
  /** Browser origins allowed besides loopback ones (`https://app.example.com`), compared as `URL.origin` writes them. */
  allowedOrigins?: readonly string[] | undefined;
}

export type GuardRefusal = { status: 401 | 403; message: string };

/**
 * The checks every request passes before the MCP transport (or the
 * sandbox) sees it, undefined when it may go on: the Host and Origin guard
 * (see HostOriginGuard: loopback Origins pass besides the listed ones), then
 * the bearer token, compared timing-safely.
 */
export function guardRequest(request: IncomingMessage, options: HttpGuardOptions): GuardRefusal | undefined {
  const verdict = new HostOriginGuard({
    boundHost: options.host,
    allowedOrigins: options.allowedOrigins ?? [],
    loopbackOrigins: true,
  }).check(request.headers);
  if ('refused' in verdict) {
    return { status: 403, message: verdict.refused === 'host' ? 'Host not allowed.' : 'Origin not allowed.' };
  }
  if (options.token === undefined) return undefined;
  const token = bearerToken(request.headers.authorization);
  if (!token || !timingSafeEqualText(options.token, token)) {
    return { status: 401, message: 'A bearer token is required.' };
  }
  return undefined;
}
