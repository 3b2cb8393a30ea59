// A file fetched from a URL outside the connection, with the transport's own stages and nothing of the connection.
import { InputError, ProviderError } from '../errors/index.js';
import { type AttemptOptions, attempt } from './attempt.js';
import { NO_STATS, type Outgoing, type Send } from './exchange.js';
import { followRedirects } from './follow-redirects.js';

export interface FetchFileOptions {
  /** Whether a URL may be fetched: checked for the URL given and for every hop a redirect points to. */
  allowed(url: URL): boolean;
  /** Most bytes read; a larger file is refused as soon as it passes them (or says it will). */
  maxBytes: number;
  /** The input field the URL came from, for the refusal's message. Default `url`. */
  field?: string;
}

export interface FetchedFile {
  bytes: Uint8Array;
  /** The media type the server gave, if any. */
  contentType: string | undefined;
}

/** `StepContext.fetchFile`: reads a file a step was given by URL. */
export type FetchFile = (url: string, options: FetchFileOptions) => Promise<FetchedFile>;

function refuse(field: string, reason: string): InputError {
  return new InputError(`Refused ${field}: ${reason}. Nothing was fetched.`, [
    { path: field, message: reason },
  ]);
}

/** The URL as one to fetch: http(s), no user-info, allowed; else the refusal, before anything is sent. */
function checkedUrl(url: string, options: FetchFileOptions, field: string): URL {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw refuse(field, 'it is not an absolute URL');
  }
  if (target.protocol !== 'https:' && target.protocol !== 'http:')
    throw refuse(field, 'only http and https URLs');
  if (target.username || target.password)
    throw refuse(field, 'a user name or password in the URL is not allowed');
  if (!options.allowed(target)) throw refuse(field, `${target.origin} is not an allowed origin`);
  return target;
}

/**
 * Fetches files by URL on the runtime's transport stages, under the rules an
 * API Call's request obeys where a connection's base URL is not the scope:
 * one attempt's deadline, the body read within its cap, redirects followed
 * by hand (http(s) only, at most five, a 303 turned into a GET), and the
 * request carries nothing of the connection (no credentials, no caller
 * headers). The caller's `allowed` rule stands where the base URL stands
 * for a step's requests, and more strictly: a redirect to a URL it does not
 * allow is not followed at all, so an allowed host's open redirect cannot
 * reach an address the caller did not allow. Never retried: a caller that
 * wants another try calls again.
 */
export function fileFetcher(options: AttemptOptions & { timeoutMs: number }): FetchFile {
  const once = attempt(options);
  return async (url, fetchOptions) => {
    const field = fetchOptions.field ?? 'url';
    const target = checkedUrl(url, fetchOptions, field);
    const where = `GET ${target.origin}${target.pathname}`;
    const guarded: Send = async (outgoing) => {
      if (fetchOptions.allowed(outgoing.url)) return once(outgoing);
      const error = new ProviderError(
        `${where} was redirected to ${outgoing.url.origin}, which is not an allowed origin; not followed.`,
        { sent: true, context: { location: outgoing.url.origin } },
      );
      return { ok: false, error, stats: NO_STATS };
    };
    const first: Outgoing = {
      method: 'GET',
      url: target,
      headers: { accept: '*/*', 'user-agent': 'toolsteps/0.1' },
      credentials: {},
      body: undefined,
      where,
      path: target.pathname,
      operation: undefined,
      idempotent: true,
      timeoutMs: options.timeoutMs,
      maxResponseBytes: fetchOptions.maxBytes,
      asBytes: true,
    };
    // No URL is a base's: every hop is a foreign one, so none carries more than the neutral headers.
    const result = await followRedirects(guarded, () => false)(first);
    if (!result.ok) throw result.error;
    const { status, body, headers } = result.answer;
    if (status < 200 || status >= 300) {
      throw new ProviderError(`${where} answered ${status}; no file was read.`, { status, sent: true });
    }
    const bytes = body instanceof Uint8Array ? body : new Uint8Array();
    return { bytes, contentType: headers.get('content-type') ?? undefined };
  };
}
