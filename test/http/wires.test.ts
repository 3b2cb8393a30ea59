import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortedError, NetworkError, ResponseTooLargeError, TimeoutError } from '../../src/errors/index.js';
import { attempt } from '../../src/http/attempt.js';
import { createDispatcher, dispatcherWire } from '../../src/http/dispatcher-wire.js';
import type { Exchange, Outgoing } from '../../src/http/exchange.js';
import { fetchWire } from '../../src/http/fetch-wire.js';
import { nodeHttpWire } from '../../src/http/node-http-wire.js';
import type { Wire } from '../../src/http/wire.js';
import { systemClock } from '../../src/model/clock.js';
import { silentLogger } from '../../src/model/logger.js';
import { freePort } from '../support/ports.js';

/**
 * Every wire against one real server on loopback: the default one straight
 * on the dispatcher, the one through fetch and the one on node:http (the
 * CLI's one-shot commands) must read answers, refuse oversized ones, time out
 * and fail the same way, since which one a runtime uses is a matter of
 * options, never of what the steps may expect.
 */
const SECRET = 'wire-secret-0123456789';
const CAP = 100;
const held: ServerResponse[] = [];

function route(req: IncomingMessage, res: ServerResponse): void {
  switch (req.url) {
    case '/ok':
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-repeated', ['one', 'two']);
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res.end('{"ticket":{"id":7}}');
      return;
    case '/early-hints':
      res.writeEarlyHints({ link: '</style.css>; rel=preload' });
      // Later, so the client has read the 103 alone before the real answer comes.
      setTimeout(() => {
        res.setHeader('content-type', 'application/json');
        res.end('{"after":"hints"}');
      }, 50);
      return;
    case '/redirect':
      res.writeHead(302, { location: '/ok', 'content-type': 'text/plain' }).end('moved');
      return;
    case '/declared-too-large':
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(CAP * 10) });
      res.end('x'.repeat(CAP * 10));
      return;
    case '/streamed-too-large':
      // No length announced: only counting the bytes as they come can stop it.
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let chunk = 0; chunk < 10; chunk += 1) res.write('y'.repeat(CAP / 2));
      res.end();
      return;
    case '/too-large-after-a-pause':
      // The cap is passed while the reader already waits for the rest.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('z'.repeat(CAP / 2));
      setTimeout(() => res.end('z'.repeat(CAP * 2)), 50);
      return;
    case '/twice':
      // Headers node:http keeps only the first of unless told otherwise; Headers joins them.
      res.setHeader('content-type', 'application/json');
      res.setHeader('retry-after', ['1', '2']);
      res.setHeader('server', ['a', 'b']);
      res.end('{}');
      return;
    case '/socket':
      // Which client port the request came from: the same one twice means a kept-alive socket.
      res.writeHead(200, { 'content-type': 'application/json' }).end(String(req.socket.remotePort));
      return;
    case '/echo-body': {
      // As an array: the answer must stay under the cap of 100 bytes.
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const { 'content-length': length = null, 'transfer-encoding': chunked = null } = req.headers;
        const seen = [req.method, length, chunked, Buffer.concat(chunks).toString('hex')];
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(seen));
      });
      return;
    }
    case '/binary':
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([0, 1, 2, 255]));
      return;
    case '/echo':
      res.writeHead(200, { 'content-type': 'application/json', location: `/next?token=${SECRET}` }).end('{}');
      return;
    case '/silent':
      held.push(res);
      return;
    case '/drip':
      // Headers at once, then a byte now and then: each chunk beats an idle timeout, the whole never ends.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      held.push(res);
      return;
    default:
      res.writeHead(404).end();
  }
}

let server: Server;
let origin: string;
/** Sockets the server has accepted: a request that opens none went on a kept-alive one. */
let connections = 0;
const dispatcher = createDispatcher();

beforeAll(async () => {
  server = createServer(route);
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of held) res.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await dispatcher.close();
});

function outgoing(
  url: string,
  timeoutMs = 5_000,
  send: Pick<Outgoing, 'method' | 'body'> & { type?: string } = { method: 'GET', body: undefined },
): Outgoing {
  const parsed = new URL(url);
  return {
    method: send.method,
    url: parsed,
    headers: { accept: 'application/json', ...(send.type ? { 'content-type': send.type } : {}) },
    credentials: { authorization: `Bearer ${SECRET}` },
    body: send.body,
    where: `GET ${parsed.pathname}`,
    path: parsed.pathname,
    operation: undefined,
    idempotent: true,
    timeoutMs,
    maxResponseBytes: CAP,
  };
}

const WIRES: [string, () => Wire][] = [
  ['dispatcher', () => dispatcherWire(dispatcher)],
  ['fetch', () => fetchWire((...args) => globalThis.fetch(...args), dispatcher)],
  ['node-http', () => nodeHttpWire()],
];

describe.each(WIRES)('the %s wire', (_name, makeWire) => {
  const send = (
    path: string,
    options: {
      timeoutMs?: number;
      signal?: AbortSignal;
      readRateLimit?: (headers: Headers) => undefined;
      send?: Parameters<typeof outgoing>[2];
    } = {},
  ) =>
    attempt({
      wire: makeWire(),
      clock: systemClock,
      logger: silentLogger,
      signal: options.signal,
      readRateLimit: options.readRateLimit,
      redact: (text) => text.split(SECRET).join('[redacted]'),
      secrets: () => [SECRET],
    })(outgoing(`${origin}${path}`, options.timeoutMs, options.send));
  const errorOf = (result: Exchange) => (result.ok ? undefined : result.error);

  it('reads status, JSON body and headers, a repeated header joined as Headers joins it', async () => {
    const result = await send('/ok');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.answer).toMatchObject({ status: 200, body: { ticket: { id: 7 } }, redirected: false });
    expect(result.answer.headers.get('X-Repeated')).toBe('one, two');
    expect(result.answer.headers.get('content-type')).toBe('application/json');
    expect(result.answer.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(result.answer.headers.get('missing')).toBeNull();
    expect(result.stats).toMatchObject({ attempts: 1, bytes: 19, secretEchoes: 0 });
  });

  it('joins a header sent twice even where node:http would keep only the first', async () => {
    const result = await send('/twice');
    expect(result.ok && result.answer.headers.get('retry-after')).toBe('1, 2');
    expect(result.ok && result.answer.headers.get('server')).toBe('a, b');
  });

  it('sends a JSON body and a binary one as given, with their length', async () => {
    const text = '{"subject":"é"}';
    const json = await send('/echo-body', { send: { method: 'POST', body: text, type: 'application/json' } });
    const hex = Buffer.from(text).toString('hex');
    expect(json).toMatchObject({ ok: true, answer: { body: ['POST', '16', null, hex] } });
    const bytes = new Uint8Array([0, 1, 2, 254, 255]);
    const binary = await send('/echo-body', { send: { method: 'PUT', body: bytes, type: 'image/png' } });
    expect(binary).toMatchObject({ ok: true, answer: { body: ['PUT', '5', null, '000102feff'] } });
    const empty = await send('/echo-body', { send: { method: 'DELETE', body: undefined } });
    expect(empty).toMatchObject({ ok: true, answer: { body: ['DELETE', null, null, ''] } });
  });

  it('sends the next request on a socket an earlier one kept alive', async () => {
    expect((await send('/ok')).ok).toBe(true);
    const opened = connections;
    expect((await send('/ok')).ok).toBe(true);
    expect(connections).toBe(opened);
  });

  it('reads the answer that follows an informational 103, not the 103', async () => {
    // The rate-limit reader is the first to see an answer's headers: it must see the final answer's.
    const seen: (string | null)[] = [];
    const result = await send('/early-hints', {
      readRateLimit: (headers) => {
        seen.push(headers.get('content-type'));
        return undefined;
      },
    });
    expect(result).toMatchObject({ ok: true, answer: { status: 200, body: { after: 'hints' } } });
    expect(seen).toEqual(['application/json']);
  });

  it('does not follow a redirect, and leaves its body unread', async () => {
    const result = await send('/redirect');
    expect(result).toMatchObject({ ok: true, answer: { status: 302, body: null } });
    expect(result.ok && result.answer.headers.get('location')).toBe('/ok');
    expect(result.stats.bytes).toBe(0);
  });

  it('hands a binary answer over as its bytes', async () => {
    const result = await send('/binary');
    expect(result.ok && Buffer.from(result.answer.body as Uint8Array)).toEqual(Buffer.from([0, 1, 2, 255]));
  });

  it('refuses an answer that announces more than the cap, without reading it', async () => {
    const result = await send('/declared-too-large');
    expect(errorOf(result)).toBeInstanceOf(ResponseTooLargeError);
  });

  it('refuses a streamed answer once it passes the cap', async () => {
    const result = await send('/streamed-too-large');
    expect(errorOf(result)).toBeInstanceOf(ResponseTooLargeError);
    // The socket that carried it is not reused half-read: the next request still reads cleanly.
    expect((await send('/ok')).ok).toBe(true);
  });

  it('refuses an answer that passes the cap while its reader waits', async () => {
    const result = await send('/too-large-after-a-pause');
    expect(errorOf(result)).toBeInstanceOf(ResponseTooLargeError);
  });

  it('counts an answer whose headers quote a secret, so its output is redacted', async () => {
    const result = await send('/echo');
    expect(result.stats.secretEchoes).toBe(1);
  });

  it('times out when no answer comes, sent unknown', async () => {
    const error = errorOf(await send('/silent', { timeoutMs: 200 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ sent: 'unknown', retryable: true });
  });

  it('times out a body that drips forever, whatever the pace of its chunks', async () => {
    const error = errorOf(await send('/drip', { timeoutMs: 200 }));
    expect(error).toBeInstanceOf(TimeoutError);
  });

  it("stops as aborted, not timed out, when the caller's signal fires", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = errorOf(await send('/silent', { signal: controller.signal }));
    expect(error).toBeInstanceOf(AbortedError);
  });

  it('says nothing was sent when the connection is refused, with the secret kept out', async () => {
    const port = await freePort();
    const result = await attempt({
      wire: makeWire(),
      clock: systemClock,
      logger: silentLogger,
      redact: (text) => text.split(SECRET).join('[redacted]'),
    })(outgoing(`http://127.0.0.1:${port}/ok`));
    const error = errorOf(result) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ sent: false, transportCode: 'ECONNREFUSED' });
    expect(JSON.stringify(error.toJSON())).not.toContain(SECRET);
  });
});
