/**
 * The kit's one door to the builder API (`toolsteps serve`, routes under
 * /v1). Every element talks through a BuilderClient: the host page supplies
 * the API's address and a short-lived token with the `builder` scope, minted
 * by its backend per user and session. The token travels in the
 * Authorization header only (never a URL, a cookie or storage the kit owns).
 */
import { ApiError } from './api-error.js';

/** Where the builder API is and how to authenticate to it; the host page supplies both, the kit stores neither. */
export interface BuilderClientOptions {
  /** Where the API is: '' (the default) for the page's own origin. */
  baseUrl?: string;
  /** The scoped token, or a function that returns the current one (for hosts that refresh it). */
  token: string | (() => string | Promise<string>);
  /** The fetch to send requests with; default the page's own. Tests and hosts that proxy calls pass theirs. */
  fetch?: typeof globalThis.fetch;
}

type Query = Record<string, string | number | undefined>;

/** The one client every element talks through, so auth, error reading and the API's address live in one place. */
export class BuilderClient {
  readonly baseUrl: string;
  readonly #token: BuilderClientOptions['token'];
  readonly #fetch: typeof globalThis.fetch;

  constructor(options: BuilderClientOptions) {
    this.baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
    this.#token = options.token;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** The absolute URL of an API path, with its query (undefined values left out). */
  url(path: string, query: Query = {}): string {
    const url = new URL(`${this.baseUrl}${path}`, globalThis.location?.href);
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined && value !== '') url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  /** The headers of every request, with a freshly read token, so a host that refreshes its token is never a call behind. */
  async headers(): Promise<Record<string, string>> {
    const token = typeof this.#token === 'function' ? await this.#token() : this.#token;
    return { authorization: `Bearer ${token}`, accept: 'application/json' };
  }

  /** A GET of an API path; a failure rejects with an ApiError a person can read. */
  get<T>(path: string, query?: Query, signal?: AbortSignal): Promise<T> {
    return this.request<T>('GET', path, { query, signal });
  }

  /** A POST with a JSON body (an empty object when none is given, as the API expects). */
  post<T>(path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
    return this.request<T>('POST', path, { body: body ?? {}, signal });
  }

  /** A DELETE of an API path, such as disconnecting a connection. */
  delete<T>(path: string): Promise<T> {
    return this.request<T>('DELETE', path, {});
  }

  /**
   * A GET whose body the caller reads itself (the event stream), through the
   * same fetch and headers as every other request; a refusal is an ApiError.
   */
  async open(path: string, accept: string, signal: AbortSignal): Promise<Response> {
    const headers = { ...(await this.headers()), accept };
    const response = await this.#fetch(this.url(path), { headers, signal, credentials: 'omit' });
    if (!response.ok || !response.body) {
      throw ApiError.fromResponse(response.status, await response.json().catch(() => undefined));
    }
    return response;
  }

  /**
   * Starts an OAuth sign-in (`startConnection`, `reconnectConnection`): the
   * one request sent with cookies, so the browser keeps the cookie the API
   * answers, which proves at the callback that this browser started the flow.
   */
  startSignIn<T>(path: string, body: unknown): Promise<T> {
    return this.request<T>('POST', path, { body, credentials: 'include' });
  }

  /**
   * Sends one request, without cookies unless told (`credentials: 'omit'`:
   * the token is the only credential; a sign-in's start takes the API's
   * cookie), and turns a refusal or an unreachable API into an ApiError; an
   * abort is passed on as it is.
   */
  async request<T>(
    method: string,
    path: string,
    {
      query,
      body,
      signal,
      credentials = 'omit',
    }: {
      query?: Query | undefined;
      body?: unknown;
      signal?: AbortSignal | undefined;
      credentials?: RequestCredentials;
    },
  ): Promise<T> {
    const headers = await this.headers();
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await this.#fetch(this.url(path, query), {
        method,
        headers,
        body: body === undefined ? null : JSON.stringify(body),
        signal: signal ?? null,
        credentials,
      });
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw ApiError.unreachable(this.baseUrl || globalThis.location?.origin || '', error);
    }
    const text = await response.text();
    const parsed = text ? safeJson(text) : undefined;
    if (!response.ok) throw ApiError.fromResponse(response.status, parsed);
    return parsed as T;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

let defaultClient: BuilderClient | undefined;

/** Sets the client every element uses unless it is given its own (`element.client = ...`). */
export function configure(options: BuilderClientOptions | BuilderClient): BuilderClient {
  defaultClient = options instanceof BuilderClient ? options : new BuilderClient(options);
  // On a server (a framework's server render) there is no document and no element to reload.
  globalThis.document?.dispatchEvent(new CustomEvent('toolsteps-configured'));
  return defaultClient;
}

export const configuredClient = (): BuilderClient | undefined => defaultClient;
