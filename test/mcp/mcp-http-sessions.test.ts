import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningMcpHttpServer } from '../../src/mcp/transports/serve-mcp.js';
import { ManualClock } from '../../src/model/clock.js';
import { type TicketingFixture, ticketingFixture } from '../support/ticketing-fixture.js';
import {
  connectHttp,
  INITIALIZE,
  LIST_TOOLS,
  MCP_ACCEPT,
  MCP_PROTOCOL,
  serveFlat,
  useFlatServer,
} from './mcp-http-fixture.js';

// The garbage collector on demand, so heap figures count what is kept, not what awaits collection.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const MB = 1024 * 1024;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
}

/** One raw request; the answer once its head arrives (a stream is left open unless `drain`). */
function send(
  url: string,
  options: {
    method?: string;
    body?: unknown;
    headers?: Record<string, string>;
    agent?: Agent;
    drain?: boolean;
  },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: options.method ?? 'POST',
        agent: options.agent,
        headers: { 'content-type': 'application/json', accept: MCP_ACCEPT, ...options.headers },
      },
      (response) => {
        const answer = { status: response.statusCode ?? 0, headers: response.headers };
        if (options.drain === false) return resolve(answer);
        response.resume();
        response.once('end', () => resolve(answer));
      },
    );
    request.on('error', reject);
    request.end(options.body === undefined ? undefined : JSON.stringify(options.body));
  });
}

/** An initialize whose client then goes quiet: the session id it was given, never used again. */
async function abandonedInitialize(url: string): Promise<string> {
  const answer = await send(url, { body: INITIALIZE });
  expect(answer.status).toBe(200);
  return answer.headers['mcp-session-id'] as string;
}

/** Whether a session still answers: 200, or 404 once it has gone. */
async function sessionAnswers(url: string, id: string): Promise<number> {
  const answer = await send(url, {
    body: LIST_TOOLS,
    headers: { 'mcp-session-id': id, 'mcp-protocol-version': MCP_PROTOCOL },
  });
  return answer.status;
}

const connect = connectHttp;

async function createTicket(client: Client, subject: string) {
  return client.callTool({ name: 'ticketing__create_ticket', arguments: { subject, description: 'd' } });
}

function heapAfterCollection(): number {
  for (let round = 0; round < 3; round += 1) gc();
  return process.memoryUsage().heapUsed;
}

async function until(condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('the MCP HTTP server under a flood of requests that start no session', () => {
  let fixture: TicketingFixture;
  let server: RunningMcpHttpServer;
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });

  beforeAll(async () => {
    fixture = await ticketingFixture();
    server = await serveFlat(fixture);
  });

  afterAll(async () => {
    agent.destroy();
    await server?.close();
    await fixture?.close();
  });

  /** `count` POSTs without a session, eight at a time, each answered with `status`. */
  async function flood(count: number, body: unknown, headers: Record<string, string>, status: number) {
    let next = 0;
    const statuses = new Set<number>();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < count) {
          next += 1;
          statuses.add((await send(server.url, { body, headers, agent })).status);
        }
      }),
    );
    expect([...statuses]).toEqual([status]);
  }

  it('keeps nothing of 5,000 requests that are not an initialize, or an initialize that fails', async () => {
    await flood(200, LIST_TOOLS, {}, 400);
    const before = heapAfterCollection();
    await flood(3_000, LIST_TOOLS, {}, 400);
    // An initialize the transport refuses (it must accept JSON and SSE) builds a pair that starts no session.
    await flood(2_000, INITIALIZE, { accept: 'application/json' }, 406);
    const grown = heapAfterCollection() - before;
    // Each request used to leave a server and a transport behind (about 24 KB): some 120 MB here.
    expect(grown / MB).toBeLessThan(12);
    expect(server.load()).toEqual({ sessions: 0, starting: 0 });
  }, 300_000);
});

describe('the MCP HTTP server when clients initialize and go quiet', () => {
  let fixture: TicketingFixture;

  beforeAll(async () => {
    fixture = await ticketingFixture();
  });

  afterAll(async () => {
    await fixture?.close();
  });

  it('lets a new client in after 70 abandoned sessions, each holding a stream open', async () => {
    const server = await serveFlat(fixture);
    const streams: Agent[] = [];
    try {
      const abandoned: string[] = [];
      for (let index = 0; index < 70; index += 1) {
        const id = await abandonedInitialize(server.url);
        abandoned.push(id);
        // The listening stream a client may hold: the session looks attached for as long as it is open.
        const own = new Agent({ keepAlive: false });
        streams.push(own);
        const stream = await send(server.url, {
          method: 'GET',
          agent: own,
          drain: false,
          headers: {
            accept: 'text/event-stream',
            'mcp-session-id': id,
            'mcp-protocol-version': MCP_PROTOCOL,
          },
        });
        expect([200, 404]).toContain(stream.status);
      }
      expect(server.load().sessions).toBe(64);
      const client = await connect(server.url);
      const result = await createTicket(client, 'After the flood');
      expect(result.isError).toBeFalsy();
      expect(server.load().sessions).toBe(64);
      // The oldest quiet sessions gave way; the newest are still there.
      expect(await sessionAnswers(server.url, abandoned[0] as string)).toBe(404);
      expect(await sessionAnswers(server.url, abandoned.at(-1) as string)).toBe(200);
      await client.close();
    } finally {
      for (const agent of streams) agent.destroy();
      await server.close();
    }
  }, 120_000);

  it('closes a session idle longer than sessionIdleMs, keeps one in use and an attached client', async () => {
    const clock = new ManualClock();
    const server = await serveFlat(fixture, { sessionIdleMs: 1_000, clock });
    try {
      const quiet = await abandonedInitialize(server.url);
      const forgotten = await abandonedInitialize(server.url);
      const active = await abandonedInitialize(server.url);
      const attached = await connect(server.url);
      clock.advance(900);
      expect(await sessionAnswers(server.url, active)).toBe(200);
      clock.advance(200);
      expect(await sessionAnswers(server.url, quiet)).toBe(404);
      // No request reaches the forgotten session: the server's own sweep closes it.
      await until(() => server.load().sessions === 2);
      expect(await sessionAnswers(server.url, forgotten)).toBe(404);
      expect(await sessionAnswers(server.url, active)).toBe(200);
      clock.advance(5_000);
      expect(await sessionAnswers(server.url, active)).toBe(404);
      // A client holding its listening stream is attached, however long it stays quiet.
      expect((await createTicket(attached, 'Still attached')).isError).toBeFalsy();
      await attached.close();
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe("the MCP HTTP server reading a session's requests", () => {
  const served = useFlatServer();

  /** A raw POST in session `id`: its status, content type and body. */
  function post(id: string, body: string | Buffer, headers: Record<string, string> = {}) {
    return new Promise<{ status: number; type: string | undefined; text: string }>((resolve, reject) => {
      const request = httpRequest(
        served.server.url,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: MCP_ACCEPT,
            'mcp-session-id': id,
            'mcp-protocol-version': MCP_PROTOCOL,
            ...headers,
          },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => {
            text += chunk.toString();
          });
          response.once('end', () =>
            resolve({ status: response.statusCode ?? 0, type: response.headers['content-type'], text }),
          );
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  }

  it('answers a call as one JSON body, and refuses bad JSON and a body over the cap before the SDK sees it', async () => {
    const id = await abandonedInitialize(served.server.url);
    const listed = await post(id, JSON.stringify(LIST_TOOLS));
    expect(listed.status).toBe(200);
    expect(listed.type).toBe('application/json');
    expect(JSON.parse(listed.text)).toMatchObject({ id: 2, result: { tools: expect.any(Array) } });
    const broken = await post(id, '{"jsonrpc":');
    expect(broken.status).toBe(400);
    expect(JSON.parse(broken.text)).toMatchObject({ error: { code: -32700 } });
    const declared = await post(id, 'x', { 'content-length': String(5 * MB) }).catch(() => ({ status: 413 }));
    expect(declared.status).toBe(413);
    const huge = await post(id, Buffer.alloc(5 * MB, 0x20)).catch((error: Error) => ({
      status: error.message,
    }));
    // The answer comes before the body is read to its end; the connection closes behind it.
    expect([413, 'write EPIPE', 'socket hang up', 'read ECONNRESET']).toContain(huge.status);
    // The session is still there for the next call.
    expect(await sessionAnswers(served.server.url, id)).toBe(200);
  }, 60_000);
});
