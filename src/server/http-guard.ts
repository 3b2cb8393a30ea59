import type { IncomingMessage } from 'node:http';
import { timingSafeEqualText } from '../values/timing-safe-equal.js';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * Whether the server listens only on this machine; such a server still checks
 * browser Origins, since a web page can reach localhost (DNS rebinding).
 */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_NAMES.has(host.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export interface HttpGuardOptions {
  /** The address the server is bound to. */
  host: string;
  /** The bearer token every request must carry; required when `host` is not loopback. */
  token?: string | undefined;
  /** Browser origins allowed besides loopback ones (`https://app.example.com`), exact match. */
  allowedOrigins?: readonly string[] | undefined;
}

export type GuardRefusal = { status: 401 | 403; message: string };

function hostnameOf(value: string): string | undefined {
  try {
    return new URL(value.includes('://') ? value : `http://${value}`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * DNS rebinding: a page on evil.example whose name now resolves to
 * 127.0.0.1 reaches a loopback server as a "same origin" request, but its
 * Host header and Origin still say evil.example. A loopback-bound server
 * therefore answers only Host names that are loopback; every server
 * answers only Origins that are loopback or listed. A request with no Origin
 * comes from a non-browser client (the MCP SDKs send none) and passes.
 */
function originRefusal(request: IncomingMessage, options: HttpGuardOptions): GuardRefusal | undefined {
  if (isLoopbackHost(options.host)) {
    const host = hostnameOf(request.headers.host ?? '');
    if (!host || !isLoopbackHost(host)) return { status: 403, message: 'Host not allowed.' };
  }
  const origin = request.headers.origin;
  if (origin === undefined) return undefined;
  const hostname = hostnameOf(origin);
  if (options.allowedOrigins?.includes(origin)) return undefined;
  if (hostname && isLoopbackHost(hostname)) return undefined;
  return { status: 403, message: 'Origin not allowed.' };
}

/** The checks every request passes before the MCP transport sees it; undefined when it may go on. */
export function guardRequest(request: IncomingMessage, options: HttpGuardOptions): GuardRefusal | undefined {
  const refusal = originRefusal(request, options);
  if (refusal) return refusal;
  if (options.token === undefined) return undefined;
  const match = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '');
  if (!match?.[1] || !timingSafeEqualText(options.token, match[1])) {
    return { status: 401, message: 'A bearer token is required.' };
  }
  return undefined;
}
