import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { type AppServer, createAppServer } from '../../src/server/app-server.js';
import { ServerRefusal } from '../../src/server/server-refusal.js';

const LIMITS = {
  maxConnections: 8,
  maxConnectionsPerAddress: 8,
  headersTimeoutMs: 1_000,
  requestTimeoutMs: 1_000,
};

let running: AppServer | undefined;
afterEach(async () => {
  running?.server.closeAllConnections();
  await running?.close();
  running = undefined;
});

/** A server whose refusals answer `{ code }` with their status, and anything else 500 `{ code, context }`. */
async function start(routes: AppServer['app'] extends infer A ? (app: A) => void : never) {
  running = createAppServer({
    limits: LIMITS,
    bodyLimit: 64,
    routes,
    answer: (error, _request, reply) => {
      if (error instanceof ServerRefusal) return reply.code(error.status).send({ code: error.code });
      const { code, validationContext } = error as { code?: string; validationContext?: string };
      return reply.code(500).send({ code, context: validationContext });
    },
  });
  return running.listen(0, '127.0.0.1');
}

const post = (url: string, body: string, type = 'application/json') =>
  fetch(url, { method: 'POST', body, headers: { 'content-type': type } });

describe('the app server every server of ours is made with', () => {
  it('validates a route body with its zod schema and answers plain JSON', async () => {
    const base = await start((app) =>
      app.post('/echo', { schema: { body: z.object({ n: z.number() }) } }, async (request) => request.body),
    );
    const ok = await post(`${base}/echo`, '{"n":1}');
    expect([ok.status, await ok.json()]).toEqual([200, { n: 1 }]);
    const bad = await post(`${base}/echo`, '{"n":"1"}');
    expect([bad.status, await bad.json()]).toEqual([500, { code: 'FST_ERR_VALIDATION', context: 'body' }]);
  });

  it('hands the framework refusals to the answer as ServerRefusals', async () => {
    const base = await start((app) => app.post('/echo', async (request) => request.body));
    const answer = async (response: Response) => [
      response.status,
      ((await response.json()) as { code: string }).code,
    ];
    expect(await answer(await fetch(`${base}/nowhere`))).toEqual([404, 'route_not_found']);
    expect(await answer(await post(`${base}/echo`, JSON.stringify({ a: 'x'.repeat(100) })))).toEqual([
      413,
      'body_too_large',
    ]);
    expect(await answer(await post(`${base}/echo`, '{"a":'))).toEqual([400, 'invalid_json']);
    expect(await answer(await post(`${base}/echo`, 'a=1', 'application/x-www-form-urlencoded'))).toEqual([
      415,
      'unsupported_media_type',
    ]);
    expect(await answer(await fetch(`${base}/%zz`))).toEqual([400, 'bad_request_target']);
  });

  it('answers 408 and closes a request that does not arrive whole in time', async () => {
    const base = await start((app) => app.post('/echo', async (request) => request.body));
    const { port } = new URL(base);
    const first = await new Promise<string>((resolve) => {
      let text = '';
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write(
          'POST /echo HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 10\r\n\r\n{',
        ),
      );
      socket.on('data', (chunk) => {
        text += chunk;
      });
      socket.on('close', () => resolve(text.split('\r\n')[0] ?? ''));
    });
    expect(first).toBe('HTTP/1.1 408 Request Timeout');
  });

  it('guards its connections from the start', async () => {
    const base = await start((app) => app.get('/', async () => ({ ok: true })));
    expect((await fetch(base)).status).toBe(200);
    expect(running!.guard.size).toBeGreaterThanOrEqual(1);
  });
});
