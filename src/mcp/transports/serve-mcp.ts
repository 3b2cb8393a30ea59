import type { AgentToolsOptions } from '../../agents/agent-tools.js';
import { LiveAgentTools } from '../../agents/live-agent-tools.js';
import { InputError } from '../../errors/index.js';
import { type Clock, systemClock } from '../../model/clock.js';
import { createAppServer } from '../../server/app-server.js';
import { MCP_MAX_BODY_BYTES } from '../../server/body-limits.js';
import { HostOriginGuard, isLoopbackHost } from '../../server/host-origin-guard.js';
import { loadMcpSdk } from '../load-mcp-sdk.js';
import { createMcpServer } from '../mcp-server.js';
import { GrantTools } from '../tools/grant-tools.js';
import type { McpTokenAccess } from '../tools/mcp-grant.js';
import type { McpToolMode } from '../tools/mcp-tool-mode.js';
import { type McpConnectionLimits, mcpServerLimits } from './mcp-connection-limits.js';
import { answerMcpRefusal } from './mcp-http-answer.js';
import { mcpRoutes } from './mcp-http-routes.js';
import type { McpSessionLoad } from './mcp-session-load.js';
import { McpSessions } from './mcp-sessions.js';
import { StdioMcpTransport } from './stdio-mcp-transport.js';

export interface McpServeOptions extends AgentToolsOptions {
  /** Default `auto`: one tool per step, or the catalogue above 40 tools. */
  mode?: McpToolMode | undefined;
  /** How often to look for connection changes, in ms; 0 never looks. Default 2000. */
  watchIntervalMs?: number | undefined;
  /** Reported as the server's version to clients. */
  version?: string | undefined;
}

export interface McpHttpServeOptions extends McpServeOptions, McpConnectionLimits {
  /** The address to listen on. Default 127.0.0.1; any other needs `token` or `tokenAccess`. */
  host?: string | undefined;
  /** The bearer token every request must carry; required when `host` is not loopback. */
  token?: string | undefined;
  /** Browser origins allowed besides loopback ones (`https://app.example.com`), exact match. */
  allowedOrigins?: readonly string[] | undefined;
  /** Default 0: any free port. */
  port?: number | undefined;
  /**
   * Most client sessions at once. At the cap, a new client takes the place
   * of the quietest session with no request in flight; it is refused with
   * 503 only when every session is at work. Default 64.
   */
  maxSessions?: number | undefined;
  /**
   * A session with no request in flight and no listening stream open for
   * this long is closed; its client gets 404 and initializes again. Default
   * 30 minutes.
   */
  sessionIdleMs?: number | undefined;
  /** The clock idle times are read from (tests). */
  clock?: Clock | undefined;
  /**
   * Scoped tokens (scope `mcp`): each decides its request's tenant, and its
   * integrations and read-only flag narrow the tools. `token`, when given
   * too, keeps granting the server's own tenant (`runtime.tenant`).
   */
  tokenAccess?: McpTokenAccess | undefined;
}

/** A server over HTTP: where it listens, and how many sessions it holds (for health checks). */
export interface RunningMcpHttpServer extends RunningMcpServer {
  url: string;
  /** How many sessions are open against the limit, for a health check or a load balancer. */
  load(): McpSessionLoad;
}

/** Sessions an HTTP server holds at once by default; each holds tools and a transport, so the number is bounded. */
export const DEFAULT_MAX_SESSIONS = 64;
/** How long an unused session is kept by default before it is closed to free its slot. */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;

/** A started MCP server, so the host can wait for it to end or stop it. */
export interface RunningMcpServer {
  /** Resolves when the server has stopped (stdin closed, or `close()`). */
  closed: Promise<void>;
  /** Stops the server and its connection-store watch; resolves once it is stopped. */
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
  const transport = new StdioMcpTransport(sdk);
  await server.connect(transport);
  transport.handOver(server);
  const close = async () => {
    stopWatching();
    await server.close();
  };
  // The transport does not notice its input ending; a client that goes away ends the server.
  process.stdin.once('end', () => void close());
  return { closed: closed.then(stopWatching), close };
}

function sessionLimits(options: McpHttpServeOptions) {
  const limits = {
    maxSessions: options.maxSessions ?? DEFAULT_MAX_SESSIONS,
    idleMs: options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS,
    clock: options.clock ?? systemClock,
  };
  if (!Number.isInteger(limits.maxSessions) || limits.maxSessions < 1 || !(limits.idleMs > 0)) {
    throw new InputError('maxSessions must be a whole number of 1 or more, sessionIdleMs more than 0.', [
      { path: 'maxSessions', message: '1 or more' },
      { path: 'sessionIdleMs', message: 'more than 0' },
    ]);
  }
  return limits;
}

/**
 * Serves the tools over Streamable HTTP at `/mcp`, on 127.0.0.1 unless told
 * otherwise. Any other address needs a bearer token: without one the server
 * refuses to start. Every request passes the Host/Origin and token checks
 * first (see `mcpRoutes`), on the servers' shared plumbing (`createAppServer`).
 */
export async function serveMcpHttp(options: McpHttpServeOptions): Promise<RunningMcpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host) && !options.token && !options.tokenAccess) {
    throw new InputError(
      `Serving MCP on ${host} (beyond this machine) needs a bearer token: pass --token-file PATH (a file only you can read) or --token-env NAME, or set TOOLSTEPS_TOKEN_KEY (or TOOLSTEPS_TOKEN_KEYS) for scoped tokens.`,
      [{ path: 'token-env', message: 'required for a host that is not loopback' }],
    );
  }
  const limits = sessionLimits(options);
  const sdk = await loadMcpSdk();
  const tools = new GrantTools(options, options.watchIntervalMs ?? 2000, options.tokenAccess);
  await tools.own();
  const settings = { mode: options.mode ?? 'auto', version: options.version ?? '0.0.0' };
  const sessions = new McpSessions(sdk, tools, settings, limits);
  const parts = {
    guard: new HostOriginGuard({
      boundHost: host,
      allowedOrigins: options.allowedOrigins ?? [],
      loopbackOrigins: true,
    }),
    auth: { token: options.token, access: options.tokenAccess, tenant: options.runtime.tenant },
    sessions,
  };
  const served = createAppServer({
    limits: mcpServerLimits(options, limits.maxSessions),
    // Fastify reads no body here (the sessions read their own); its limit is the same as theirs all the same.
    bodyLimit: MCP_MAX_BODY_BYTES,
    answer: answerMcpRefusal,
    routes: (app) => mcpRoutes(app, parts),
  });
  const stop = async () => {
    tools.stop();
    await sessions.closeAll();
  };
  let origin: string;
  try {
    origin = await served.listen(options.port ?? 0, host);
  } catch (error) {
    // A port already taken: nothing is left watching or sweeping behind the refusal.
    await stop();
    throw error;
  }
  let resolveClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  const close = async () => {
    await stop();
    await served.close();
    resolveClosed();
  };
  return { url: `${origin}/mcp`, closed, close, load: () => sessions.load() };
}
