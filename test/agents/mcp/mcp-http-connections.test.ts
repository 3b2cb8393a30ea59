import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningMcpHttpServer } from '../../../src/mcp/transports/serve-mcp.js';
import { type TicketingFixture, ticketingFixture } from '../../support/ticketing-fixture.js';
import { LIST_TOOLS, postMcp, serveFlat } from './mcp-http-fixture.js';

/**
 * Callers who never finish a request: the token is checked only once the
 * headers are in, so the connection itself must be bounded in time and in
 * number, or a caller without the token holds sockets and memory at will.
 */

const TOKEN = 'mcp-connections-test-token-0123456789';

interface Stalled {
  socket: net.Socket;
  /** Resolves with what the server sent before it closed the connection. */
  closed: Promise<string>;
}

/** A connection that sends `head` and then nothing more. */
function stall(port: number, head: string): Stalled {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk.toString('latin1');
  });
  socket.on('error', () => {});
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  socket.write(head);
  return { socket, closed };
}

const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still open after ${ms} ms`)), ms)),
  ]);

describe('the MCP HTTP server against connections that never finish a request', () => {
  let fixture: TicketingFixture;
  let server: RunningMcpHttpServer;
  let port: number;
  const open: Stalled[] = [];

  beforeAll(async () => {
    fixture = await ticketingFixture();
    server = await serveFlat(fixture, {
      token: TOKEN,
      maxConnections: 8,
      headersTimeoutMs: 400,
      requestTimeoutMs: 800,
    });
    port = Number(new URL(server.url).port);
  });

  afterAll(async () => {
    for (const stalled of open) stalled.socket.destroy();
    await server?.close();
    await fixture?.close();
  });

  it('closes a caller without the token that sends its headers a byte at a time', async () => {
    const stalled = stall(port, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: ${'a'.repeat(8_000)}`);
    open.push(stalled);
    // Node's own default waits a minute for headers (and checks every 30 s).
    expect(await within(stalled.closed, 5_000)).toMatch(/^HTTP\/1\.1 408|^$/);
  }, 10_000);

  it('closes a caller with the token whose initialize body never arrives whole', async () => {
    const stalled = stall(
      port,
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{"jsonrpc":"2.0",`,
    );
    open.push(stalled);
    // Node's own default waits five minutes for a whole request, holding what came so far.
    expect(await within(stalled.closed, 5_000)).toMatch(/^HTTP\/1\.1 408|^$/);
  }, 10_000);

  it('holds no more connections than maxConnections, and takes a client again once they go', async () => {
    const flood = Array.from({ length: 40 }, () => stall(port, 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n'));
    open.push(...flood);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The server closes every connection past the cap as it arrives.
    const held = flood.filter((stalled) => !stalled.socket.destroyed).length;
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThanOrEqual(8);
    await within(Promise.all(flood.map((stalled) => stalled.closed)), 5_000);
    // A tools/list outside any session: refused, but answered.
    const answer = await postMcp(server.url, TOKEN, LIST_TOOLS);
    expect(answer.status).toBe(400);
  }, 15_000);
});
