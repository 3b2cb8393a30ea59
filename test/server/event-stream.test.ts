import { afterEach, describe, expect, it } from 'vitest';
import { type AppServer, createAppServer } from '../../src/server/app-server.js';
import { type EventStream, eventText, openEventStream } from '../../src/server/event-stream.js';

let running: AppServer | undefined;
afterEach(async () => {
  running?.server.closeAllConnections();
  await running?.close();
  running = undefined;
});

describe('server-sent events', () => {
  it('writes an event as fields, each on one line', () => {
    expect(eventText({ event: 'trigger', id: 'a\nb', data: '{"x":1}' })).toBe(
      'event: trigger\nid: a b\ndata: {"x":1}\n\n',
    );
    expect(eventText({ data: 'one\ntwo' })).toBe('data: one\ndata: two\n\n');
  });

  it('streams events in order until the caller is no longer allowed, then ends', async () => {
    let allowed = true;
    let stream: EventStream | undefined;
    let closed = false;
    running = createAppServer({
      limits: {
        maxConnections: 4,
        maxConnectionsPerAddress: 4,
        headersTimeoutMs: 5_000,
        requestTimeoutMs: 5_000,
      },
      bodyLimit: 1024,
      answer: (_error, _request, reply) => reply.code(500).send(),
      routes: (app) =>
        app.get('/events', (request, reply) => {
          reply.hijack();
          stream = openEventStream(request.raw, reply.raw, {
            headers: { 'x-extra': 'yes' },
            stillAllowed: async () => allowed,
            onClose: () => {
              closed = true;
            },
          });
        }),
    });
    const base = await running.listen(0, '127.0.0.1');
    const response = await fetch(`${base}/events`);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('x-extra')).toBe('yes');
    stream!.send({ event: 'e', id: '1', data: 'first' });
    stream!.send({ event: 'e', id: '2', data: 'second' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    allowed = false;
    stream!.send({ event: 'e', id: '3', data: 'never' });
    const text = await response.text();
    expect(text).toBe(': connected\n\nevent: e\nid: 1\ndata: first\n\nevent: e\nid: 2\ndata: second\n\n');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closed).toBe(true);
  });
});
