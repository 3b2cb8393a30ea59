import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll } from 'vitest';
import {
  type McpHttpServeOptions,
  type RunningMcpHttpServer,
  serveMcpHttp,
} from '../../src/mcp/transports/serve-mcp.js';
import type { SandboxFixture } from '../support/sandbox-fixture.js';
import { type TicketingFixture, ticketingFixture } from '../support/ticketing-fixture.js';

/**
 * The MCP HTTP server over a fixture's catalogue and runtime as these tests
 * run it: one tool per step, and no watching of the connection store.
 * `options` add to that (a token, a clock, session limits).
 */
export function serveFlat(
  fixture: Pick<SandboxFixture, 'registry' | 'runtime'>,
  options: Partial<McpHttpServeOptions> = {},
) {
  return serveMcpHttp({
    registry: fixture.registry,
    runtime: fixture.runtime,
    mode: 'flat',
    watchIntervalMs: 0,
    ...options,
  });
}

/**
 * A ticketing fixture and its flat MCP HTTP server for the tests of one
 * describe block: started before them, closed after. Read `server` in a test.
 */
export function useFlatServer(): { fixture: TicketingFixture; server: RunningMcpHttpServer } {
  const held = {} as { fixture: TicketingFixture; server: RunningMcpHttpServer };
  beforeAll(async () => {
    held.fixture = await ticketingFixture();
    held.server = await serveFlat(held.fixture);
  });
  afterAll(async () => {
    await held.server?.close();
    await held.fixture?.close();
  });
  return held;
}

/** The protocol version the raw requests of these tests speak. */
export const MCP_PROTOCOL = '2025-06-18';

/** What a Streamable HTTP client must accept on a POST: a JSON answer or an event stream. */
export const MCP_ACCEPT = 'application/json, text/event-stream';

/** A client's first request, as the tests send it by hand. */
export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: MCP_PROTOCOL, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/** A request that belongs in a session (`mcp-session-id`): without one, the server refuses it. */
export const LIST_TOOLS = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };

/**
 * One JSON-RPC request POSTed by hand to the MCP endpoint `url` as a client
 * sends it (`bearer` as its token, a JSON body, both answer types
 * accepted), within `session` when given (its id and the protocol version);
 * for answers the official client would not let a test see.
 */
export function postMcp(url: string, bearer: string, body: unknown, session?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${bearer}`,
      'content-type': 'application/json',
      accept: MCP_ACCEPT,
      ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': MCP_PROTOCOL } : {}),
    },
    body: JSON.stringify(body),
  });
}

/** An MCP client of the server at `url`, sending `token` as its bearer token when given. */
export async function connectHttp(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'toolsteps-http-test', version: '1.0.0' });
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}
