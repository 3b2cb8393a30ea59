import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WireExchange } from './openapi-contract.js';

export interface RecordedExchange extends WireExchange {
  /** The first path segment below the recorder: the sandbox mount (`ticketing`, `deployments`). */
  mount: string;
  requestHeaders: http.IncomingHttpHeaders;
  responseHeaders: http.IncomingHttpHeaders;
}

export interface WireRecorder {
  /** Put this where the sandbox URL would go: every request passes through and is kept. */
  url: string;
  exchanges: RecordedExchange[];
  close(): Promise<void>;
}

function parsed(raw: string): unknown {
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/**
 * A transparent HTTP proxy in front of the sandbox that keeps each request
 * and its answer as they crossed the wire, so contract tests see what a step
 * really sent and what the emulator really answered, without touching either.
 * The Host header passes unchanged, so links the emulator builds point back
 * here and following them is recorded too.
 */
export async function startWireRecorder(target: string): Promise<WireRecorder> {
  const upstream = new URL(target);
  const exchanges: RecordedExchange[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const requestBody = Buffer.concat(chunks);
      const forwarded = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: request.method,
          path: request.url,
          headers: request.headers,
        },
        (answer) => {
          const answerChunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => answerChunks.push(chunk));
          answer.on('end', () => {
            const answerBody = Buffer.concat(answerChunks);
            const url = new URL(request.url ?? '/', 'http://recorder.invalid');
            const [, mount = '', ...rest] = url.pathname.split('/');
            exchanges.push({
              mount,
              method: request.method ?? 'GET',
              path: `/${rest.join('/')}`,
              query: url.searchParams,
              body: parsed(requestBody.toString('utf8')),
              status: answer.statusCode ?? 0,
              response: parsed(answerBody.toString('utf8')),
              requestHeaders: request.headers,
              responseHeaders: answer.headers,
            });
            // Hop-by-hop headers are the recorder's own business, not the sandbox's.
            const {
              connection: _connection,
              'keep-alive': _keepAlive,
              'transfer-encoding': _encoding,
              ...headers
            } = answer.headers;
            response.writeHead(answer.statusCode ?? 502, headers);
            response.end(answerBody);
          });
        },
      );
      forwarded.on('error', () => response.destroy());
      forwarded.end(requestBody);
    });
  });
  // Longer than any pause between a test's requests, so a kept-alive socket is never closed under a client.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
