const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * Whether a host name is this machine's; a server bound to one listens only
 * here, but still checks browser Origins, since a web page can reach
 * localhost (DNS rebinding).
 */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_NAMES.has(host.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The host name of a Host header (`name:port`) or an Origin (`scheme://name:port`); undefined when it is neither. */
export function hostnameOf(value: string): string | undefined {
  try {
    return new URL(value.includes('://') ? value : `http://${value}`).hostname;
  } catch {
    return undefined;
  }
}

/** An origin as `URL.origin` writes it, so `https://app.example.com/` and `https://app.example.com` are one. */
function normalOrigin(origin: string): string {
  try {
    return new URL(origin).origin;
  } catch {
    return origin;
  }
}

export interface HostOriginPolicy {
  /** The address the server is bound to: bound to loopback, it answers only loopback Host names. */
  boundHost: string;
  /** Browser origins allowed to call, exact (`https://app.example.com`). */
  allowedOrigins: Iterable<string>;
  /** Whether any loopback origin (a page served on this machine) is allowed too. */
  loopbackOrigins: boolean;
}

/** What the guard says of a request: its Origin (undefined when it sent none), or which header it was refused for. */
export type HostOriginVerdict = { origin: string | undefined } | { refused: 'host' | 'origin' };

/**
 * The check every request of our servers passes before anything else is
 * read, its token included. DNS rebinding: a page on evil.example whose
 * name now resolves to 127.0.0.1 reaches a loopback server as a "same
 * origin" request, but its Host header and Origin still say evil.example,
 * so a loopback-bound server answers only loopback Host names; and every
 * server answers only the Origins it allows, which is about which pages may
 * spend a token. A request with no Origin comes from a server or a tool
 * (the MCP SDKs send none), not a browser, and passes.
 */
export class HostOriginGuard {
  private readonly allowed: ReadonlySet<string>;
  private readonly loopbackBound: boolean;
  /**
   * The last Host header seen and whether it named this machine: a
   * server's callers send the same one, request after request, and
   * reading it is parsing a URL.
   */
  private lastHost: { header: string; loopback: boolean } | undefined;

  constructor(private readonly policy: HostOriginPolicy) {
    this.allowed = new Set([...policy.allowedOrigins].map(normalOrigin));
    this.loopbackBound = isLoopbackHost(policy.boundHost);
  }

  check(headers: { host?: string | undefined; origin?: string | undefined }): HostOriginVerdict {
    if (this.loopbackBound && !this.namesLoopback(headers.host ?? '')) return { refused: 'host' };
    const { origin } = headers;
    if (origin === undefined || this.allows(origin)) return { origin };
    return { refused: 'origin' };
  }

  /** Whether a Host header names a loopback host. */
  private namesLoopback(header: string): boolean {
    const last = this.lastHost;
    if (last?.header === header) return last.loopback;
    const host = hostnameOf(header);
    const loopback = !!host && isLoopbackHost(host);
    this.lastHost = { header, loopback };
    return loopback;
  }

  /** Whether a page of `origin` may call (listed, or loopback where those are allowed). */
  allows(origin: string): boolean {
    if (this.allowed.has(origin)) return true;
    if (!this.policy.loopbackOrigins) return false;
    const hostname = hostnameOf(origin);
    return hostname !== undefined && isLoopbackHost(hostname);
  }
}
