import { createServer, type RequestListener, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { otelApiIfLoaded } from '../telemetry/index.js';
import { type ConnectionCaps, ConnectionGuard } from './connection-guard.js';
import { lastValues } from './query-string.js';
import { addRequestSpans, type RequestTelemetry } from './request-spans.js';
import { asServerRefusal, ServerRefusal } from './server-refusal.js';
import { type ServerTimeouts, serverTimeoutOptions } from './server-timeouts.js';
import { zodValidatorCompiler } from './zod-validator.js';

/**
 * Fastify is a graph of some hundred files: required when the first server
 * is made, not when this module is, so the CLI's bundle carries none of it
 * and a command that serves nothing never loads it (like undici).
 */
const loadFastify = () => createRequire(import.meta.url)('fastify') as typeof import('fastify');

/** How long callers may take, and how many connections they may hold, in all and from one address. */
export interface AppServerLimits extends ServerTimeouts, ConnectionCaps {}

/**
 * How a server answers what it refuses and what fails: the plumbing's own
 * refusals come as ServerRefusal (no route, a request target or body the
 * framework refused), anything a route throws as it was thrown.
 */
export type AnswerRefusal = (error: unknown, request: FastifyRequest, reply: FastifyReply) => unknown;

export interface AppServerOptions {
  limits: AppServerLimits;
  /** The most bytes Fastify's own parsers read of a body (JSON): the server's limit from body-limits.ts. */
  bodyLimit: number;
  answer: AnswerRefusal;
  /** Adds the server's routes, hooks and plugins; runs before the app boots. */
  routes(app: FastifyInstance): void;
  /**
   * A SERVER span and a count per request of these routes (request-spans.ts),
   * when telemetry is on as the server is made (an SDK registered and
   * `otelApi()` awaited); otherwise nothing is added to any request.
   */
  requestTelemetry?: RequestTelemetry | undefined;
}

/** One of our servers: the Fastify app, the `node:http` server under it, and its connection guard. */
export interface AppServer {
  app: FastifyInstance;
  server: Server;
  guard: ConnectionGuard;
  /** Resolves once every route is in; a request that arrives sooner waits for it. */
  ready: Promise<void>;
  /** Listens on `host` (`port` 0: any free one); resolves with `http://host:port` once it does. */
  listen(port: number, host: string): Promise<string>;
  /** Stops taking connections, closes the idle ones, waits for the rest, then runs the app's onClose hooks. */
  close(): Promise<void>;
}

/**
 * Whose server the app runs on: ours, made here with our timeouts (Node's
 * own request and headers timeouts, checked every second) and the
 * connection guard, so they hold for callers who never finish a request,
 * before any route or token is read. Requests wait until the app is ready.
 */
function ownServer(limits: AppServerLimits, booting: () => Promise<void> | undefined) {
  let made: Server | undefined;
  const factory = (handler: RequestListener) => {
    const listener: RequestListener = (request, response) => {
      const ready = booting();
      if (!ready) return handler(request, response);
      ready.then(
        () => handler(request, response),
        () => response.writeHead(503).end(),
      );
    };
    made = createServer(serverTimeoutOptions(limits), listener);
    return made;
  };
  return { factory, server: () => made! };
}

/**
 * The one way our servers (the builder API, MCP over HTTP, the webhook
 * intake) are made: a Fastify app on our own `node:http` server, with
 * `limits` in force, bodies capped at `bodyLimit`, zod as the validator of
 * route schemas (and answers written as plain JSON), and every refusal and
 * failure, the framework's own included, answered by `answer`.
 */
export function createAppServer(options: AppServerOptions): AppServer {
  const fastify = loadFastify();
  let booting: Promise<void> | undefined;
  const own = ownServer(options.limits, () => booting);
  const app = fastify({
    serverFactory: own.factory,
    bodyLimit: options.bodyLimit,
    routerOptions: {
      maxParamLength: 2_048,
      // As our servers always read a query (WHATWG URL's searchParams): each name once, its last value.
      querystringParser: lastValues,
    },
    frameworkErrors: (error, request, reply) => options.answer(asServerRefusal(error), request, reply),
  }) as unknown as FastifyInstance;
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.setErrorHandler((error, request, reply) => options.answer(asServerRefusal(error), request, reply));
  app.setNotFoundHandler((request, reply) =>
    options.answer(new ServerRefusal(404, 'route_not_found', 'Not found.'), request, reply),
  );
  if (options.requestTelemetry && otelApiIfLoaded()) addRequestSpans(app, options.requestTelemetry);
  options.routes(app);
  const server = own.server();
  const guard = new ConnectionGuard(options.limits);
  guard.attach(server);
  const ready = Promise.resolve(app.ready()).then(() => {
    booting = undefined;
  });
  booting = ready;
  return { app, server, guard, ready, listen: listenOn(server, ready), close: closeOf(app, server) };
}

function listenOn(server: Server, ready: Promise<void>) {
  return async (port: number, host: string) => {
    await ready;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address() as AddressInfo;
    return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  };
}

function closeOf(app: FastifyInstance, server: Server) {
  return async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    await closed;
    await app.close();
  };
}
