import type { Dispatcher } from 'undici';
import type { Wire } from './wire.js';

async function readStream(
  body: ReadableStream<Uint8Array> | null,
  limitBytes: number,
): Promise<Uint8Array | undefined> {
  const reader = body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (let part = await reader.read(); !part.done; part = await reader.read()) {
    bytes += part.value.byteLength;
    if (bytes > limitBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(part.value);
  }
  return Buffer.concat(chunks);
}

/**
 * The wire through a `fetch`: a test interceptor's (nock patches the global
 * one, looked up per request by the runtime), a tracing wrapper, or Node's own
 * with its global dispatcher, which needs no undici package loaded. Its
 * WHATWG Request, Response and stream objects cost several times the CPU of
 * `dispatcherWire`.
 */
export function fetchWire(fetch: typeof globalThis.fetch, dispatcher: Dispatcher | undefined): Wire {
  return async (request) => {
    const controller = new AbortController();
    request.cancellation.onAbort((reason) => controller.abort(reason));
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal: controller.signal,
      dispatcher,
    } as RequestInit);
    const body = response.body;
    return {
      status: response.status,
      headers: response.headers,
      read: (limitBytes) => readStream(body, limitBytes),
      discard: async () => {
        await body?.cancel();
      },
    };
  };
}
