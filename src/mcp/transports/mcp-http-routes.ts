import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { HostOriginGuard } from '../../server/host-origin-guard.js';
import { ServerRefusal } from '../../server/server-refusal.js';
import { leaveBodiesUnread } from '../../server/unread-bodies.js';
import { authenticate, type McpAuthOptions, type McpGrant, ownGrant } from '../tools/mcp-grant.js';
import { answerMcpError } from './mcp-http-answer.js';
import type { McpSessions } from './mcp-sessions.js';

export interface McpHttpParts {
  guard: HostOriginGuard;
  auth: McpAuthOptions;
  sessions: McpSessions;
}

/** The refusal of the Host/Origin guard's verdict, in the words the MCP server has always said it. */
function guardRefusal(refused: 'host' | 'origin'): ServerRefusal {
  return refused === 'host'
    ? new ServerRefusal(403, 'host_not_allowed', 'Host not allowed.')
    : new ServerRefusal(403, 'origin_not_allowed', 'Origin not allowed.');
}

/**
 * The 401 for a request without a usable grant. A sent token that fails is
 * not called missing (a client that sent one would look for the wrong fault),
 * but which check failed (unknown, expired, revoked, wrong scope, malformed)
 * is never said: every failed token gets the same words.
 */
function unauthorized(authorization: string | undefined): ServerRefusal {
  return authorization === undefined || authorization.trim() === ''
    ? new ServerRefusal(401, 'unauthorized', 'A bearer token is required.')
    : new ServerRefusal(401, 'unauthorized', 'The bearer token is not valid.');
}

/**
 * The MCP endpoint on the app: `/mcp`, every method, answered by the
 * sessions through their Streamable HTTP transport (NodeHttpMcpTransport). The Host/Origin
 * guard and the token run first, for every path, so a foreign page or a bad
 * token learns nothing, not even which paths exist. Bodies are left unread
 * by the framework: a session reads its own, with its own limit, and only
 * once it knows the request belongs to one.
 *
 * Both hooks are callback hooks, not async ones: a token checked at once
 * (none asked, or the server's single token) answers in the same turn, and
 * only a scoped token's verification waits. The route is served from its own
 * `onRequest` hook, which hands Node's request and response over
 * (`reply.hijack()`): Fastify's later stages (body parsing, validation, the
 * handler's promise) have nothing to do for a route whose body the
 * transport reads and whose answer it writes.
 */
export function mcpRoutes(app: FastifyInstance, parts: McpHttpParts): void {
  const grants = new WeakMap<FastifyRequest, McpGrant>();
  const own = ownGrant(parts.auth);
  leaveBodiesUnread(app);
  app.addHook('onRequest', (request, _reply, done) => {
    const verdict = parts.guard.check(request.headers);
    if ('refused' in verdict) return done(guardRefusal(verdict.refused));
    const authorization = request.headers.authorization;
    const admit = (grant: McpGrant | undefined) => {
      if (!grant) return done(unauthorized(authorization));
      grants.set(request, grant);
      done();
    };
    const granted = authenticate(authorization, parts.auth, own);
    if (granted instanceof Promise) granted.then(admit, done);
    else admit(granted);
  });
  const serve = (request: FastifyRequest, reply: FastifyReply) => {
    // The sessions' transport answers on Node's own request and response: Fastify hands both over and writes nothing more.
    reply.hijack();
    const grant = grants.get(request) as McpGrant;
    parts.sessions.handle(request.raw, reply.raw, grant).catch(() => {
      if (!reply.raw.headersSent) answerMcpError(reply.raw, 500, 'The request could not be handled.');
    });
  };
  app.all(
    '/mcp',
    {
      onRequest: (request, reply, done) => {
        serve(request, reply);
        done();
      },
    },
    // Never reached: the route's hook has answered. Kept as the handler a route must have.
    serve,
  );
}
