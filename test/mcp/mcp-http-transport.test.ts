import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMcpSdk } from '../../src/mcp/load-mcp-sdk.js';
import { NodeHttpMcpTransport } from '../../src/mcp/transports/node-http-mcp-transport.js';
import { INITIALIZE, LIST_TOOLS, MCP_PROTOCOL, postMcp, useFlatServer } from './mcp-http-fixture.js';

/** A session started by hand: its id. */
async function initialize(url: string): Promise<string> {
  const answer = await postMcp(url, '', INITIALIZE);
  expect(answer.status).toBe(200);
  await answer.text();
  return answer.headers.get('mcp-session-id') as string;
}

describe('the MCP HTTP transport on Node’s response', () => {
  const served = useFlatServer();

  it('answers a call as JSON with its length (never chunked), a batch as an array in order, a notification with 202', async () => {
    const id = await initialize(served.server.url);
    const listed = await postMcp(served.server.url, '', LIST_TOOLS, id);
    expect(listed.headers.get('content-type')).toBe('application/json');
    expect(listed.headers.get('transfer-encoding')).toBeNull();
    const text = await listed.text();
    expect(Number(listed.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    const batch = await postMcp(
      served.server.url,
      '',
      [
        { ...LIST_TOOLS, id: 'b' },
        { ...LIST_TOOLS, id: 'a' },
      ],
      id,
    );
    expect(((await batch.json()) as { id: string }[]).map((answer) => answer.id)).toEqual(['b', 'a']);
    const notified = await postMcp(
      served.server.url,
      '',
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      id,
    );
    expect(notified.status).toBe(202);
    expect(await notified.text()).toBe('');
  });

  it('refuses as the SDK’s transport does: media type, protocol version, a second initialize, other methods', async () => {
    const id = await initialize(served.server.url);
    const headers = { 'mcp-session-id': id, 'content-type': 'application/json' };
    const typed = await fetch(served.server.url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'text/plain', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(LIST_TOOLS),
    });
    expect(typed.status).toBe(415);
    const version = await fetch(served.server.url, {
      method: 'POST',
      headers: {
        ...headers,
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '1999-01-01',
      },
      body: JSON.stringify(LIST_TOOLS),
    });
    expect(version.status).toBe(400);
    expect(await version.text()).toContain('Unsupported protocol version');
    expect((await postMcp(served.server.url, '', INITIALIZE, id)).status).toBe(400);
    expect((await postMcp(served.server.url, '', { jsonrpc: '2.0', id: 9 }, id)).status).toBe(400);
    expect((await fetch(served.server.url, { method: 'PUT', headers })).status).toBe(405);
    const listen = await fetch(served.server.url, { headers: { ...headers, accept: 'application/json' } });
    expect(listen.status).toBe(406);
  });

  it('ends a session on DELETE: the next request is told it does not exist', async () => {
    const id = await initialize(served.server.url);
    const headers = { 'mcp-session-id': id, 'mcp-protocol-version': MCP_PROTOCOL };
    expect((await fetch(served.server.url, { method: 'DELETE', headers })).status).toBe(200);
    expect((await postMcp(served.server.url, '', LIST_TOOLS, id)).status).toBe(404);
  });
});

describe('a message sent within a call, ahead of its answer', () => {
  let http: Server;
  let url: string;
  /** The methods of the messages that reached the protocol through `onmessage` rather than its request routine. */
  const classified: string[] = [];

  beforeAll(async () => {
    const sdk = await loadMcpSdk();
    const transports = new Map<string, NodeHttpMcpTransport>();
    http = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
      const known = transports.get(String(request.headers['mcp-session-id']));
      if (known) return known.handleRequest(request, response, body);
      const server = new sdk.Server({ name: 'progress', version: '1' }, { capabilities: { tools: {} } });
      server.setRequestHandler(CallToolRequestSchema, async (call, extra) => {
        const progressToken = call.params._meta?.progressToken as string | number;
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken, progress: 1 },
        });
        return { content: [{ type: 'text', text: 'done' }] };
      });
      const transport = new NodeHttpMcpTransport(sdk, {
        newId: () => 'the-session',
        initialized: (id) => transports.set(id, transport),
      });
      await server.connect(transport);
      transport.handOver(server);
      const protocolOnMessage = transport.onmessage;
      transport.onmessage = (message, extra) => {
        classified.push('method' in message ? message.method : 'answer');
        protocolOnMessage?.(message, extra);
      };
      transport.handleRequest(request, response, body);
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  });

  afterAll(async () => {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });

  it('turns the answer into an event stream that carries the message, then the answer', async () => {
    const types: string[] = [];
    const client = new Client({ name: 'progress-test', version: '1' });
    const recording = async (input: string | URL | Request, init?: RequestInit) => {
      const answer = await fetch(input, init);
      if (init?.method === 'POST') types.push(answer.headers.get('content-type') ?? '');
      return answer;
    };
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: recording }));
    const progress: number[] = [];
    const result = await client.callTool({ name: 'any', arguments: {} }, undefined, {
      onprogress: (update) => progress.push(update.progress),
    });
    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
    expect(progress).toEqual([1]);
    expect(types.at(-1)).toBe('text/event-stream');
    await client.close();
  });

  it('hands each request to the protocol’s own routine, which still validates it; a notification goes through onmessage', async () => {
    classified.length = 0;
    const client = new Client({ name: 'routine-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    await client.callTool({ name: 'any', arguments: {} });
    // The initialize and the call went to the routine: only the notification was classified by the protocol's onmessage.
    expect(classified).toEqual(['notifications/initialized']);
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': 'the-session',
      'mcp-protocol-version': MCP_PROTOCOL,
    };
    const invalid = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { arguments: {} } }),
    });
    const answer = (await invalid.json()) as { id: number; error?: { code: number; message: string } };
    expect(answer.id).toBe(5);
    expect(answer.error?.message).toMatch(/name/);
    await client.close();
  });
});
