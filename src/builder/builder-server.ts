import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { packageVersion } from '../disk/package-root.js';
import { requestTarget } from '../http/request-target.js';
import { systemClock } from '../model/clock.js';
import { ANSWERED, type RouteHandler } from './api-call.js';
import type { RouteId } from './api-contract.js';
import { ApiRefusal, errorAnswer } from './api-refusal.js';
import { createLimitedServer } from './builder-connection-limits.js';
import { type BuilderServerOptions, checkServerOptions } from './builder-options.js';
import type { BuilderServices } from './builder-services.js';
import { catalogueRoutes } from './catalogue-routes.js';
import { connectionRoutes } from './connection-routes.js';
import { CorsPolicy } from './cors-policy.js';
import { triggerEvents } from './event-stream.js';
import { oauthCallback } from './oauth-callback.js';
import { OAuthFlows } from './oauth-flows.js';
import { builderOpenApiDocument } from './openapi-document.js';
import { bearerClaims, requestParts } from './request-parts.js';
import { matchRoute } from './route-match.js';
import { serveStaticFile } from './static-files.js';
import { testStep } from './step-test-run.js';
import { subscriptionRoutes } from './subscription-routes.js';
import { TenantContexts } from './tenant-contexts.js';
import { isHookPath, tenantIntake } from './tenant-intake.js';
import { TokenRateLimit } from './token-rate-limit.js';
import { TriggerEventHub } from './trigger-event-hub.js';

/** Default cap of a request body: a draft configuration is a few KB. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

const HANDLERS: Record<Exclude<RouteId, 'openApiDocument' | 'oauthCallback'>, RouteHandler> = {
  ...catalogueRoutes,
  testStep,
  ...connectionRoutes,
  ...subscriptionRoutes,
  triggerEvents,
};

let openApi: Record<string, unknown> | undefined;
const openApiDocument = () => {
  openApi ??= builderOpenApiDocument(packageVersion());
  return openApi;
};

export interface RunningBuilderServer {
  /** Where it listens, e.g. `http://127.0.0.1:4020`. */
  url: string;
  /** What providers and browsers are told to reach (`publicUrl`, else `url`). */
  publicUrl: string;
  server: Server;
  hub: TriggerEventHub;
  close(): Promise<void>;
}

/**
 * The `Server-Timing` of an API answer: this server's own time on the
 * request (`app`), from the request's turn in the API to its JSON written
 * out, in ms. A provider call the handler awaited is inside it; an answer
 * from the options cache has none. Operators and the benchmark read it
 * without guessing at what the network added.
 */
const serverTiming = (started: number) => `app;dur=${(performance.now() - started).toFixed(2)}`;

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string | number | string[]> = {},
  started?: number,
) {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    ...headers,
    ...(started === undefined ? {} : { 'server-timing': serverTiming(started) }),
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  response.end(text);
}

function sendError(
  response: ServerResponse,
  error: unknown,
  headers: Record<string, string | number | string[]>,
  started?: number,
) {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const { status, body } = errorAnswer(error);
  const extra: Record<string, string> = {};
  if (status === 401) extra['www-authenticate'] = 'Bearer';
  if (body.error.retryAfterMs !== undefined)
    extra['retry-after'] = String(Math.ceil(body.error.retryAfterMs / 1000));
  sendJson(response, status, body, { ...headers, ...extra }, started);
}

/** One request under `/v1`: origin, route, token, scope, rate, then the handler; every refusal as the API's error. */
async function handleApi(
  services: BuilderServices,
  limiter: TokenRateLimit,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
) {
  const started = performance.now();
  const cors = services.cors();
  let headers = {};
  try {
    const origin = cors.check(request);
    headers = cors.headers(origin);
    if (request.method === 'OPTIONS') {
      if (!origin) throw new ApiRefusal(400, 'input_invalid', 'A preflight needs an Origin.');
      response.writeHead(204, cors.preflightHeaders(origin)).end();
      return;
    }
    const matched = matchRoute(request.method ?? 'GET', url.pathname);
    if (!matched) throw new ApiRefusal(404, 'route_not_found', `No route ${url.pathname}.`);
    if ('allowed' in matched)
      throw new ApiRefusal(405, 'method_not_allowed', `Use ${matched.allowed.join(' or ')}.`);
    const { route, params } = matched;
    if (route.id === 'openApiDocument') return sendJson(response, 200, openApiDocument(), headers);
    if (route.id === 'oauthCallback') return await oauthCallback(services, request, response, url);
    const claims = await bearerClaims(request, services.options.tokens);
    limiter.take(claims.tokenId);
    const { query, body } = await requestParts(
      request,
      route,
      url,
      services.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    );
    const handler = HANDLERS[route.id as keyof typeof HANDLERS];
    const tenant = services.contexts.of(claims.tenant);
    const result = await handler({
      claims,
      tenant,
      params,
      query,
      body,
      origin,
      server: services,
      request,
      response,
    });
    if (result === ANSWERED) return;
    sendJson(response, 200, route.response.parse(result), headers, started);
  } catch (error) {
    sendError(response, error, headers, started);
  }
}

/**
 * Starts the builder API (and the tenants' webhook intake under
 * `/hooks/<tenant>/`, and, with `staticRoot`, a page at `/`) on
 * 127.0.0.1 unless told otherwise.
 */
export async function startBuilderServer(options: BuilderServerOptions): Promise<RunningBuilderServer> {
  const host = options.host ?? '127.0.0.1';
  checkServerOptions(options, host);
  const clock = options.clock ?? systemClock;
  const streams = new Set<ServerResponse>();
  let publicUrl = '';
  let cors: CorsPolicy | undefined;
  const hub = new TriggerEventHub(options.maxEventStreams);
  const services: BuilderServices = {
    options,
    contexts: new TenantContexts(options),
    flows: new OAuthFlows(() => clock.now(), options.signIns),
    hub,
    publicUrl: () => publicUrl,
    cors: () => cors!,
    now: () => clock.now(),
    trackStream: (response) => {
      streams.add(response);
      response.once('close', () => streams.delete(response));
    },
  };
  const limiter = new TokenRateLimit({ clock, ...options.rateLimit });
  const intake = tenantIntake(options, hub);
  // Bounded in connections, per address and in all, and in time, before any token is read.
  const server = createLimitedServer(options.connectionLimits, (request, response) => {
    const url = requestTarget(request);
    if (!url) {
      response.writeHead(400, { 'content-type': 'text/plain' }).end('Bad request target.');
      return;
    }
    if (isHookPath(url.pathname)) {
      intake(request, response);
      return;
    }
    if (url.pathname === '/v1' || url.pathname.startsWith('/v1/')) {
      void handleApi(services, limiter, request, response, url);
      return;
    }
    servePage(services, request, response, url.pathname);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  publicUrl = (options.publicUrl ?? url).replace(/\/+$/, '');
  // The page served here calls the API from the server's own origin, so that origin is allowed too.
  const own = options.staticRoot ? [new URL(publicUrl).origin, url] : [];
  cors = new CorsPolicy([...(options.allowedOrigins ?? []), ...own], host);
  const close = async () => {
    for (const response of streams) response.end();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
  };
  return { url, publicUrl, server, hub, close };
}

/** Anything outside `/v1` and the intakes: the static page when there is one, after the Host check. */
function servePage(
  services: BuilderServices,
  request: IncomingMessage,
  response: ServerResponse,
  pathname: string,
) {
  const root = services.options.staticRoot;
  try {
    services.cors().check(request);
  } catch (error) {
    return sendError(response, error, {});
  }
  if (!root || (request.method !== 'GET' && request.method !== 'HEAD')) {
    return sendError(response, new ApiRefusal(404, 'route_not_found', 'Not found.'), {});
  }
  serveStaticFile(root, pathname, response).catch((error) => sendError(response, error, {}));
}
