import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/**
 * A model provider's endpoint on loopback that answers each POST from a
 * script (`answer(n)` for the n-th request, 0-based): the provider's official
 * client talks to it over a real socket, as it would to the provider, and
 * every request body is kept for assertions. Started for the enclosing describe.
 */
export function useScriptedEndpoint<Body>(answer: (index: number) => object) {
  const bodies: Body[] = [];
  const server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => {
      raw += chunk;
    });
    request.on('end', () => {
      bodies.push(JSON.parse(raw) as Body);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer(bodies.length - 1)));
    });
  });
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  return { bodies, url: () => url };
}
