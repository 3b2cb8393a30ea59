import { ProviderError } from '../errors/index.js';
import { addStats, type Exchange, isRedirect, NO_STATS, type Outgoing, type Send } from './exchange.js';

const MAX_REDIRECTS = 5;

/** What a hop out of the base URL may carry: nothing of ours, and nothing the caller set. */
const NEUTRAL_HEADERS = ['accept', 'user-agent'];

/**
 * The next hop of a redirect, or the refusal to take it. Only http(s) is
 * followed (a `data:` URL's payload is not the provider's answer). Nothing of
 * ours follows a redirect out of the base URL (same origin and path prefix):
 * no credentials and no caller header; and only a read may follow there at
 * all. A 303, and a 301/302 answering a POST, continue as a GET without the
 * body, as browsers do.
 */
function nextHop(
  outgoing: Outgoing,
  status: number,
  target: URL,
  underBase: (url: URL) => boolean,
): Outgoing | ProviderError {
  if (target.protocol !== 'https:' && target.protocol !== 'http:') {
    return new ProviderError(
      `${outgoing.where} was redirected to a ${target.protocol.replace(/:$/, '')}: URL; only http(s) redirects are followed.`,
      { status, sent: true, context: { location: target.protocol } },
    );
  }
  let next: Outgoing = { ...outgoing, url: target };
  if (!underBase(target)) {
    if (outgoing.method !== 'GET' && outgoing.method !== 'HEAD') {
      return new ProviderError(
        `${outgoing.where} was redirected outside the connection's base URL (${target.origin}); not followed.`,
        { status, sent: true, context: { location: target.origin } },
      );
    }
    const headers = Object.fromEntries(
      Object.entries(next.headers).filter(([name]) => NEUTRAL_HEADERS.includes(name.toLowerCase())),
    );
    next = { ...next, credentials: {}, headers };
  }
  if (status === 303 || ((status === 301 || status === 302) && outgoing.method === 'POST')) {
    const { 'content-type': _dropped, ...headers } = next.headers;
    next = { ...next, method: 'GET', body: undefined, headers };
  }
  return next;
}

/**
 * Follows up to five redirects by hand (fetch runs with `redirect: 'manual'`),
 * so that the base-URL rule above, not fetch's own, decides where credentials go.
 * The stats of every hop add up.
 */
export function followRedirects(send: Send, underBase: (url: URL) => boolean): Send {
  return async (first: Outgoing): Promise<Exchange> => {
    let outgoing = first;
    let stats = NO_STATS;
    for (let hop = 0; ; hop += 1) {
      const result = await send(outgoing);
      // Nearly every request is answered where it was sent: that answer, and what it cost, as they came.
      if (
        hop === 0 &&
        (!result.ok || (!isRedirect(result.answer.status) && result.answer.redirected === false))
      )
        return result;
      stats = addStats(stats, result.stats);
      if (!result.ok) return { ...result, stats };
      const location = result.answer.headers.get('location');
      if (!isRedirect(result.answer.status) || !location) {
        return { ...result, answer: { ...result.answer, redirected: hop > 0 }, stats };
      }
      if (hop >= MAX_REDIRECTS) {
        const error = new ProviderError(`${first.where} redirected more than ${MAX_REDIRECTS} times.`, {
          sent: true,
        });
        return { ok: false, error, stats };
      }
      let target: URL;
      try {
        target = new URL(location, outgoing.url);
      } catch {
        const error = new ProviderError(`${first.where} was redirected to an address that is not a URL.`, {
          status: result.answer.status,
          sent: true,
        });
        return { ok: false, error, stats };
      }
      const next = nextHop(outgoing, result.answer.status, target, underBase);
      if (next instanceof ProviderError) return { ok: false, error: next, stats };
      outgoing = next;
    }
  };
}
