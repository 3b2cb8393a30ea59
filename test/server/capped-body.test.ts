import { createServer, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BodyTimedOut,
  BodyTooLarge,
  consumeCappedBody,
  declaredLength,
  readCappedBody,
  readCappedRequest,
} from '../../src/server/capped-body.js';

/** `count` chunks of `size` bytes, counting in `seen.read` how many were pulled. */
function chunks(count: number, size: number, seen: { read: number }): AsyncIterable<Uint8Array> {
  const next = async (): Promise<IteratorResult<Uint8Array>> => {
    if (seen.read === count) return { done: true, value: undefined };
    seen.read += 1;
    return { done: false, value: new Uint8Array(size) };
  };
  return { [Symbol.asyncIterator]: () => ({ next }) };
}

describe('the one capped body reader', () => {
  it('returns a body within the limit whole, and one given whole as it is', async () => {
    expect((await readCappedBody(chunks(4, 1024, { read: 0 }), { limit: 4096 })).byteLength).toBe(4096);
    const whole = new Uint8Array(10);
    expect(await readCappedBody(whole, { limit: 10 })).toBe(whole);
  });

  it('refuses a declared length over the limit without reading a byte', async () => {
    const seen = { read: 0 };
    const refusal = await readCappedBody(chunks(10, 1024, seen), { limit: 1024, declared: 2048 }).catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(BodyTooLarge);
    expect(refusal).toMatchObject({ status: 413, limit: 1024 });
    expect(seen.read).toBe(0);
  });

  it('stops at the first chunk past the limit, declared or not', async () => {
    const seen = { read: 0 };
    await expect(readCappedBody(chunks(300, 1024, seen), { limit: 256 * 1024 })).rejects.toBeInstanceOf(
      BodyTooLarge,
    );
    expect(seen.read).toBe(257);
    await expect(readCappedBody(new Uint8Array(11), { limit: 10 })).rejects.toBeInstanceOf(BodyTooLarge);
  });

  it('hands chunks to the taker without holding them, and counts them', async () => {
    let taken = 0;
    const total = await consumeCappedBody(chunks(3, 100, { read: 0 }), { limit: 300 }, (chunk) => {
      taken += chunk.byteLength;
    });
    expect([total, taken]).toEqual([300, 300]);
  });

  it('gives up with BodyTimedOut when its signal aborts while a chunk is awaited', async () => {
    const stalled: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<Uint8Array>>(() => {}) }),
    };
    const deadline = new AbortController();
    const read = readCappedBody(stalled, { limit: 10, signal: deadline.signal });
    deadline.abort();
    await expect(read).rejects.toBeInstanceOf(BodyTimedOut);
  });

  it('reads a declared length only when it is a plain number', () => {
    expect(declaredLength({ 'content-length': '42' })).toBe(42);
    expect(declaredLength(new Headers({ 'content-length': '42' }))).toBe(42);
    expect(declaredLength({ 'content-length': '4e2' })).toBeUndefined();
    expect(declaredLength({})).toBeUndefined();
  });
});

/** A node:http server that reads each request with `read` and answers what came of it: `200 <bytes>` or `<status> <error name>`. */
let closeServer: (() => void) | undefined;
afterEach(() => closeServer?.());
async function serveReads(read: (request: IncomingMessage) => Promise<Buffer>): Promise<number> {
  const server = createServer((request, response) => {
    read(request).then(
      (bytes) => response.end(`200 ${bytes.byteLength}`),
      (error: Error & { status?: number }) =>
        response.writeHead(error.status ?? 500).end(`${error.status} ${error.name}`),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closeServer = () => {
    server.closeAllConnections();
    server.close();
  };
  return (server.address() as { port: number }).port;
}

/** Sends `head` then `body` on a raw socket; resolves everything the server wrote until it closed or `waitMs` passed. */
function exchange(port: number, head: string, body: string, waitMs = 1_000): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(head + body));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.on('error', (error) => resolve(`${answer}[${(error as NodeJS.ErrnoException).code}]`));
    const done = setTimeout(() => {
      socket.destroy();
      resolve(answer);
    }, waitMs);
    socket.on('close', () => {
      clearTimeout(done);
      resolve(answer);
    });
  });
}

describe("the capped reader of a Node request's body", () => {
  it('returns a body within the limit whole', async () => {
    const port = await serveReads((request) => readCappedRequest(request, { limit: 1024 }));
    const answer = await exchange(
      port,
      'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 600\r\n\r\n',
      'a'.repeat(600),
    );
    expect(answer).toMatch(/\r\n\r\n200 600$/);
  });

  it('stops at the first chunk past the limit, and the sender gets the answer, not a reset', async () => {
    const port = await serveReads((request) => readCappedRequest(request, { limit: 100 }));
    const head = 'POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n';
    const answer = await exchange(port, head, `c8\r\n${'a'.repeat(200)}\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 413 [\s\S]*413 BodyTooLarge/);
  });

  it('gives up with BodyTimedOut when the body has not arrived whole by its deadline', async () => {
    const port = await serveReads((request) => readCappedRequest(request, { limit: 1024, deadlineMs: 100 }));
    const answer = await exchange(port, 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n', 'abc');
    expect(answer).toMatch(/^HTTP\/1\.1 408 [\s\S]*408 BodyTimedOut/);
  });

  it('refuses a declared length over the limit before reading a byte', async () => {
    const port = await serveReads((request) =>
      readCappedRequest(request, { limit: 10, declared: declaredLength(request.headers) }),
    );
    const answer = await exchange(port, 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n', '');
    expect(answer).toMatch(/413 BodyTooLarge/);
  });
});
