import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { RawHeaders } from './raw-headers.js';
import type { Wire } from './wire.js';

/**
 * Reads a body by its events, at most `limitBytes` of it: its async iterator
 * costs several times as much per answer.
 */
function readEvents(body: Readable, limitBytes: number): Promise<Uint8Array | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    body.on('data', (chunk: Buffer) => {
      bytes += chunk.byteLength;
      if (bytes <= limitBytes) chunks.push(chunk);
      else {
        body.destroy();
        resolve(undefined);
      }
    });
    body.on('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)));
    body.on('error', reject);
  });
}

/**
 * The wire straight on an undici dispatcher (`dispatcher.request`): the same
 * keep-alive sockets, timeouts and proxy rules as fetch with that dispatcher,
 * without fetch's WHATWG Request, Response and stream objects, which cost
 * about twice the CPU of everything else a call does. It follows no redirect
 * and does not decompress; we ask for no encoding, so none comes.
 */
export function dispatcherWire(dispatcher: Dispatcher): Wire {
  return async (request) => {
    const answer = await dispatcher.request({
      origin: request.url.origin,
      path: `${request.url.pathname}${request.url.search}`,
      method: request.method as Dispatcher.HttpMethod,
      headers: request.headers,
      body: request.body,
      signal: request.signal,
    });
    return {
      status: answer.statusCode,
      headers: new RawHeaders(answer.headers),
      read: (limitBytes) => readEvents(answer.body, limitBytes),
      discard: async () => {
        await answer.body.dump();
      },
    };
  };
}
