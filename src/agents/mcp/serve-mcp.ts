import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InputError } from '../../errors/index.js';
import type { AgentToolsOptions } from '../agent-tools.js';
import { LiveAgentTools } from '../live-agent-tools.js';
import { type GuardRefusal, guardRequest, type HttpGuardOptions, isLoopbackHost } from './http-guard.js';
import { loadMcpSdk, type McpSdk } from './load-mcp-sdk.js';
import { createMcpServer } from './mcp-server.js';
import type { McpToolMode } from './mcp-tool-mode.js';

export interface McpServeOptions extends AgentToolsOptions {
  /** Default `auto`: one tool per step, or the catalogue above 40 tools. */
  mode?: McpToolMode | undefined;
  /** How often to look for connection changes, in ms; 0 never looks. Default 2000. */
  watchIntervalMs?: number | undefined;
  /** Reported as the server's version to clients. */
  version?: string | undefined;
}

export interface McpHttpServeOptions extends McpServeOptions, Partial<HttpGuardOptions> {
  /** Default 0: any free port. */
  port?: number | undefined;
  /** Most client sessions at once; a new one beyond is refused with 503. Default 64. */
  maxSessions?: number | undefined;
}

export interface RunningMcpServer {
  /** Resolves when the server has stopped (stdin closed, or `close()`). */
  closed: Promise<void>;
  close(): Promise<void>;
}

async function prepare(options: McpServeOptions) {
  const sdk = await loadMcpSdk();
  const live = await LiveAgentTools.load(options);
  const stopWatching = options.watchIntervalMs === 0 ? () => {} : live.watch(options.watchIntervalMs ?? 2000);
  const settings = { mode: options.mode ?? 'auto', version: options.version ?? '0.0.0' };
  return { sdk, live, stopWatching, settings };
}

/** Serves the tools over stdio until stdin ends: the transport every MCP client can launch. */
export async function serveMcpStdio(options: McpServeOptions): Promise<RunningMcpServer> {
  const { sdk, live, stopWatching, settings } = await prepare(options);
  const { server, closed } = createMcpServer(sdk, live, settings);
  await server.connect(new sdk.StdioServerTransport());
  const close = async () => {
    stopWatching();
    await server.close();
  };
  // The SDK's stdio transport does not notice its input ending; a client that goes away ends the server.
  process.stdin.once('end', () => void close());
  return { closed: closed.then(stopWatching), close };
}

function refuse(response: ServerResponse, refusal: GuardRefusal): void {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (refusal.status === 401) headers['www-authenticate'] = 'Bearer';
  response.writeHead(refusal.status, headers);
  response.end(
    JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: refusal.message }, id: null }),
  );
}

/**
 * Serves the tools over Streamable HTTP at `/mcp`, on 127.0.0.1 unless told
 * otherwise. Any other address needs a bearer token: without one the server
 * refuses to start. Every request passes the Host/Origin and token checks
 * first (see `guardRequest`).
 */
export async function serveMcpHttp(
  options: McpHttpServeOptions,
): Promise<RunningMcpServer & { url: string }> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host) && !options.token) {
    throw new InputError(
      `Serving MCP on ${host} (beyond this machine) needs a bearer token: pass --token-env NAME with the token in that variable.`,
      [{ path: 'token-env', message: 'required for a host that is not loopback' }],
    );
  }
  const { sdk, live, stopWatching, settings } = await prepare(options);
  const sessions = new Sessions(sdk, live, settings, options.maxSessions ?? 64);
  const guard = { host, token: options.token, allowedOrigins: options.allowedOrigins };
  const http = createServer((request, response) => {
    // The guard runs first, so a foreign page learns nothing, not even which paths exist.
    const refusal = guardRequest(request, guard);
    if (refusal) return refuse(response, refusal);
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== '/mcp') {
      return answer(response, 404, 'Not found: the MCP endpoint is /mcp.');
    }
    sessions.handle(request, response).catch(() => {
      if (!response.headersSent) answer(response, 500, 'The request could not be handled.');
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, resolve);
  });
  const { port } = http.address() as AddressInfo;
  let resolveClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  const close = async () => {
    stopWatching();
    await sessions.closeAll();
    await new Promise<void>((resolve) => http.close(() => resolve()));
    http.closeAllConnections();
    resolveClosed();
  };
  return { url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`, closed, close };
}

type Transport = InstanceType<McpSdk['StreamableHTTPServerTransport']>;

/** One MCP server and transport per client session, at most `limit` at once. */
class Sessions {
  private readonly open = new Map<string, { transport: Transport; close(): Promise<void> }>();

  constructor(
    private readonly sdk: McpSdk,
    private readonly live: LiveAgentTools,
    private readonly settings: { mode: McpToolMode; version: string },
    private readonly limit: number,
  ) {}

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const id = request.headers['mcp-session-id'];
    const existing = typeof id === 'string' ? this.open.get(id) : undefined;
    if (existing) return existing.transport.handleRequest(request, response);
    if (id !== undefined) return answer(response, 404, 'Unknown or expired session: initialize again.');
    if (request.method !== 'POST') return answer(response, 400, 'Start a session with an initialize POST.');
    if (this.open.size >= this.limit) return answer(response, 503, 'Too many sessions; try again later.');
    const { server } = createMcpServer(this.sdk, this.live, this.settings);
    const transport: Transport = new this.sdk.StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        this.open.set(sessionId, { transport, close: () => server.close() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) this.open.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(request, response);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.open.values()].map((session) => session.close()));
    this.open.clear();
  }
}

function answer(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
