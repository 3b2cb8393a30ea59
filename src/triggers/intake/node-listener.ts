import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Intake } from './intake.js';

function headersOf(request: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/**
 * The request body as chunks, without handing the stream's own iterator to
 * the reader: a `for await` that stops early (413) would destroy the socket
 * through it, and the provider would see a reset instead of the answer.
 */
function chunksOf(request: IncomingMessage): AsyncIterable<Uint8Array> {
  const iterator = request[Symbol.asyncIterator]();
  return { [Symbol.asyncIterator]: () => ({ next: () => iterator.next() }) };
}

/**
 * The intake as a `node:http` request listener, for `http.createServer`,
 * Express or Fastify's raw handler. A body left unread (too large) is
 * drained and the connection closed after the answer.
 */
export function toNodeListener(intake: Intake): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    intake
      .handle({
        method: request.method ?? 'GET',
        path: request.url ?? '/',
        headers: headersOf(request),
        body: chunksOf(request),
      })
      .then(
        (answer) => ({ status: answer.status, text: JSON.stringify(answer.body) }),
        () => ({ status: 500, text: JSON.stringify({ status: 'internal_error' }) }),
      )
      .then(({ status, text }) => {
        if (!request.readableEnded) {
          response.setHeader('connection', 'close');
          request.resume();
        }
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(text);
      });
  };
}
