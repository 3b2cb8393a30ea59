import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LiveAgentTools } from '../../agents/live-agent-tools.js';
import type { Clock } from '../../model/clock.js';
import { MCP_MAX_BODY_BYTES } from '../../server/body-limits.js';
import type { McpSdk } from '../load-mcp-sdk.js';
import { callerAuth, createMcpServer, type McpServerSettings } from '../mcp-server.js';
import type { GrantTools } from '../tools/grant-tools.js';
import { grantKey, type McpGrant } from '../tools/mcp-grant.js';
import { readInitializeBody } from './initialize-body.js';
import { answerMcpError } from './mcp-http-answer.js';
import { readMcpRequestBody } from './mcp-request-body.js';
import type { McpSessionLoad } from './mcp-session-load.js';
import { NodeHttpMcpTransport } from './node-http-mcp-transport.js';

type Server = ReturnType<typeof createMcpServer>['server'];

interface Session {
  readonly server: Server;
  readonly transport: NodeHttpMcpTransport;
  /** The grant that started it (`grantKey`): a request of any other grant is told the session does not exist. */
  readonly grant: string;
  /** POSTs and DELETEs being answered: a session at work is never closed to make room or for idleness. */
  busy: number;
  /** Listening streams (GET) open: its client is still connected, so idleness does not close it. */
  streams: number;
  lastActive: number;
}

export interface McpSessionLimits {
  /** Most sessions at once, counting initializes being answered. */
  maxSessions: number;
  /** A session with nothing in flight and no stream open for this long is closed. */
  idleMs: number;
  clock: Clock;
}

/**
 * The MCP server and transport of each client session over HTTP. Every pair
 * is released when it can no longer be used: a request that starts no
 * session when its answer ends, a session when its client deletes it, when
 * it has been idle for `idleMs`, or when it is the quietest one and a new
 * client needs its place. Closing the server also drops its tools-changed
 * listener, the reference that would otherwise keep the pair alive.
 */
export class McpSessions {
  private readonly open = new Map<string, Session>();
  private readonly starting = new Set<Server>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly sdk: McpSdk,
    private readonly tools: GrantTools,
    private readonly settings: McpServerSettings,
    private readonly limits: McpSessionLimits,
  ) {
    // Abandoned sessions go even when no request comes to notice them.
    this.sweeper = setInterval(() => this.sweep(), Math.min(Math.max(limits.idleMs / 4, 50), 60_000));
    this.sweeper.unref();
  }

  load(): McpSessionLoad {
    return { sessions: this.open.size, starting: this.starting.size };
  }

  async handle(request: IncomingMessage, response: ServerResponse, grant: McpGrant): Promise<void> {
    const id = request.headers['mcp-session-id'];
    if (id !== undefined) {
      const session = typeof id === 'string' ? this.current(id) : undefined;
      // Another tenant's (or another grant's) session is answered as one that does not exist.
      if (session?.grant === grantKey(grant)) return this.serve(session, request, response, grant);
      return answerMcpError(response, 404, 'Unknown or expired session: initialize again.', { code: -32001 });
    }
    if (request.method !== 'POST') {
      return answerMcpError(response, 400, 'Start a session with an initialize POST.');
    }
    const body = await readInitializeBody(request);
    if (!body.ok) {
      const headers: Record<string, string> = body.status === 413 ? { connection: 'close' } : {};
      return answerMcpError(response, body.status, body.message, { code: body.code, headers });
    }
    // Loaded before room is made: between the check and the start nothing may wait.
    const live = await this.tools.toolsFor(grant);
    if (!this.makeRoom()) return answerMcpError(response, 503, 'Too many sessions at work; try again later.');
    return this.start(request, response, body.message, live, grant);
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    const servers = [...this.open.values()].map((session) => session.server);
    this.open.clear();
    servers.push(...this.starting);
    this.starting.clear();
    await Promise.all(servers.map((server) => server.close().catch(() => {})));
  }

  /** An initialize: a new server and transport, kept only if a session comes of it. */
  private async start(
    request: IncomingMessage,
    response: ServerResponse,
    message: unknown,
    live: LiveAgentTools,
    grant: McpGrant,
  ): Promise<void> {
    const { server } = createMcpServer(this.sdk, live, this.settings);
    this.starting.add(server);
    let admitted: Session | undefined;
    const transport = new NodeHttpMcpTransport(this.sdk, {
      newId: () => randomUUID(),
      initialized: (sessionId) => {
        admitted = {
          server,
          transport,
          grant: grantKey(grant),
          busy: 1,
          streams: 0,
          lastActive: this.limits.clock.now(),
        };
        this.starting.delete(server);
        this.open.set(sessionId, admitted);
      },
    });
    transport.onclose = () => this.forget(transport);
    response.once('close', () => {
      this.starting.delete(server);
      if (admitted) this.settle(admitted, false);
      else server.close().catch(() => {});
    });
    await server.connect(transport);
    transport.handOver(server);
    transport.handleRequest(request, response, message, callerAuth(grant));
  }

  private async serve(
    session: Session,
    request: IncomingMessage,
    response: ServerResponse,
    grant: McpGrant,
  ): Promise<void> {
    const listening = request.method === 'GET';
    if (listening) session.streams += 1;
    else session.busy += 1;
    session.lastActive = this.limits.clock.now();
    response.once('close', () => this.settle(session, listening));
    if (request.method !== 'POST') return session.transport.handleRequest(request, response);
    // The transport validates the message, the headers and the session; the body is read here, with the servers' cap.
    const body = await readMcpRequestBody(request, MCP_MAX_BODY_BYTES);
    if (!body.ok) {
      const headers: Record<string, string> = body.status === 413 ? { connection: 'close' } : {};
      return answerMcpError(response, body.status, body.message, { code: body.code, headers });
    }
    // Each request's own token names the caller (`extra.authInfo`): tokens of one grant share a session.
    session.transport.handleRequest(request, response, body.message, callerAuth(grant));
  }

  private settle(session: Session, listening: boolean): void {
    if (listening) session.streams -= 1;
    else session.busy -= 1;
    session.lastActive = this.limits.clock.now();
  }

  /** The session of this id, unless it has been idle too long (then it is closed now). */
  private current(id: string): Session | undefined {
    const session = this.open.get(id);
    if (!session || !this.idle(session)) return session;
    this.close(id, session);
    return undefined;
  }

  private idle(session: Session): boolean {
    const quiet = session.busy === 0 && session.streams === 0;
    return quiet && this.limits.clock.now() - session.lastActive >= this.limits.idleMs;
  }

  private sweep(): void {
    for (const [id, session] of this.open) if (this.idle(session)) this.close(id, session);
  }

  /**
   * Room for one more session: the idle ones go first, then, at the cap, the
   * quietest session with nothing in flight (one without a listening stream
   * before one with, then the longest quiet). False when every session is at work.
   */
  private makeRoom(): boolean {
    this.sweep();
    if (this.open.size + this.starting.size < this.limits.maxSessions) return true;
    let quietest: [string, Session] | undefined;
    for (const entry of this.open) {
      const session = entry[1];
      if (session.busy > 0) continue;
      const best = quietest?.[1];
      const attached = (candidate: Session) => (candidate.streams > 0 ? 1 : 0);
      if (
        !best ||
        attached(session) < attached(best) ||
        (attached(session) === attached(best) && session.lastActive < best.lastActive)
      ) {
        quietest = entry;
      }
    }
    if (quietest) this.close(...quietest);
    return quietest !== undefined;
  }

  private close(id: string, session: Session): void {
    this.open.delete(id);
    session.server.close().catch(() => {});
  }

  /** A transport that closed by itself (its client deleted the session) leaves the table. */
  private forget(transport: NodeHttpMcpTransport): void {
    const id = transport.sessionId;
    if (id !== undefined && this.open.get(id)?.transport === transport) this.open.delete(id);
  }
}
