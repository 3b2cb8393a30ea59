// The default wire: the process's shared undici dispatcher (made on first use) and requests
// sent straight on a dispatcher's callback API.
import { createRequire } from 'node:module';
import type { Dispatcher } from 'undici';
import { RawHeaders } from './raw-headers.js';
import { asError, GatheredAnswer, type Wire, type WireAnswer, type WireRequest } from './wire.js';

/**
 * undici is a graph of over a hundred files: it is loaded when the first
 * dispatcher is made, not when this module is, so `toolsteps --help`, a
 * search of the catalogue, and an embedder that only builds a manifest never
 * pay for it. `require` keeps `createDispatcher` synchronous.
 */
const loadUndici = () => createRequire(import.meta.url)('undici') as typeof import('undici');

/** Timeouts of the shared connection pool; every wait has a deadline, so a silent provider cannot hold a call forever. */
export interface DispatcherOptions {
  connectTimeoutMs?: number;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  keepAliveTimeoutMs?: number;
}

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];

/** Whether the environment names a proxy, which only our own dispatcher honours. */
export function proxyConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return PROXY_VARIABLES.some((name) => Boolean(env[name]));
}

/**
 * One keep-alive dispatcher for every request. When a proxy variable is set,
 * EnvHttpProxyAgent routes through it and honours NO_PROXY.
 */
export function createDispatcher(
  options: DispatcherOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): Dispatcher {
  const agentOptions = {
    connectTimeout: options.connectTimeoutMs ?? 10_000,
    headersTimeout: options.headersTimeoutMs ?? 30_000,
    bodyTimeout: options.bodyTimeoutMs ?? 30_000,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 10_000,
  };
  const { Agent, EnvHttpProxyAgent } = loadUndici();
  if (!proxyConfigured(env)) return new Agent(agentOptions);
  // Loopback never goes through a proxy: the sandbox and the OAuth callback live there.
  const noProxy = [env.NO_PROXY ?? env.no_proxy, 'localhost,127.0.0.1,::1'].filter(Boolean).join(',');
  return new EnvHttpProxyAgent({ ...agentOptions, noProxy });
}

let shared: Dispatcher | undefined;

/** The process's one keep-alive dispatcher, made on first use. */
export function sharedDispatcher(): Dispatcher {
  shared ??= createDispatcher();
  return shared;
}

/** Closes the shared dispatcher so a CLI run can exit without waiting for idle sockets. */
export async function closeSharedDispatcher(): Promise<void> {
  const current = shared;
  shared = undefined;
  await current?.close();
}

/** One request on the dispatcher's callback API (`dispatch`): the head, each chunk and the end arrive as calls. */
class DispatchedRequest extends GatheredAnswer implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.failure) controller.abort(this.failure);
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    status: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    // An informational answer (103 Early Hints) comes before the real one: like fetch, wait for that.
    if (status >= 200) this.started(status, new RawHeaders(headers));
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.gather(chunk);
  }

  onResponseEnd(): void {
    this.finished();
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.fail(error);
  }

  protected stop(reason: Error): void {
    this.controller?.abort(reason);
  }
}

/**
 * The wire straight on an undici dispatcher, through its callback API: the
 * same keep-alive sockets, timeouts and proxy rules as fetch with that
 * dispatcher, without fetch's WHATWG Request, Response and stream objects,
 * which cost about as much CPU as everything else an invocation does. It
 * follows no redirect and does not decompress; we ask for no encoding, so
 * none comes.
 */
export function dispatcherWire(dispatcher: Dispatcher): Wire {
  return (request: WireRequest) =>
    new Promise<WireAnswer>((resolve, reject) => {
      const handler = new DispatchedRequest(request.cancellation, { resolve, reject });
      if (request.cancellation.aborted) return;
      try {
        dispatcher.dispatch(
          {
            origin: request.url.origin,
            path: `${request.url.pathname}${request.url.search}`,
            method: request.method as Dispatcher.HttpMethod,
            headers: request.headers,
            body: request.body ?? null,
          },
          handler,
        );
      } catch (error) {
        // undici refuses some requests (a bad header) before sending anything, by throwing.
        handler.fail(asError(error));
      }
    });
}
