import { InputError } from '../errors/index.js';

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);

function isLoopback(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * Validates a connection's `baseUrl` override (sandbox, proxy, self-hosted
 * gateway). Credentials are attached to every request sent under it, so it
 * must be https, or http on loopback only, and carry no user-info, query or
 * fragment. Returns it without a trailing slash.
 */
export function validateBaseUrl(value: string, field = 'baseUrl'): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InputError(`${field} is not a URL.`, [
      { path: field, message: 'expected an absolute http(s) URL' },
    ]);
  }
  const reasons: string[] = [];
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) {
    reasons.push('must be https (plain http is accepted only for loopback hosts)');
  }
  if (url.username || url.password) reasons.push('must not contain a user name or password');
  if (url.search || url.hash) reasons.push('must not contain a query or fragment');
  if (reasons.length) {
    throw new InputError(
      `${field} ${reasons.join('; ')}.`,
      reasons.map((message) => ({ path: field, message })),
    );
  }
  return url.toString().replace(/\/+$/, '');
}

/**
 * Joins a base URL (which may carry a path prefix) and a guarded endpoint
 * path, with `query` and then `more` (a name in `more` replaces it in
 * `query`, and one set to undefined there drops it, as spreading both would).
 */
export function joinUrl(
  base: string,
  endpoint: string,
  query?: Record<string, string | number | undefined>,
  more?: Record<string, string | number | undefined>,
): URL {
  const joined = base.replace(/\/+$/, '') + endpoint;
  if (!endpoint.includes('?') && !endpoint.includes('#')) {
    // Serialized as searchParams.set would (one value per name), without the URL re-serializing itself per value.
    const params = new URLSearchParams();
    setEach(params, query);
    setEach(params, more);
    const search = params.toString();
    return new URL(search === '' ? joined : `${joined}?${search}`);
  }
  const url = new URL(joined);
  setEach(url.searchParams, query);
  setEach(url.searchParams, more);
  return url;
}

function setEach(params: URLSearchParams, query: Record<string, string | number | undefined> | undefined) {
  if (query === undefined) return;
  for (const key in query) {
    if (!Object.hasOwn(query, key)) continue;
    const value = query[key];
    if (value === undefined) params.delete(key);
    else params.set(key, String(value));
  }
}
