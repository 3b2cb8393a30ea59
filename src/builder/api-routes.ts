import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { packageVersion } from '../disk/package-root.js';
import { allowNamedOrigins } from '../server/named-origins-cors.js';
import { type CountRequest, rateLimitBy } from '../server/rate-limit.js';
import { ServerRefusal } from '../server/server-refusal.js';
import { zodValidatorCompiler } from '../server/zod-validator.js';
import { API_PREFIX, JSON_HEADERS, startTiming, timeJsonAnswer } from './api-answer.js';
import { ANSWERED, type RouteHandler } from './api-call.js';
import { ROUTES, type RouteId } from './api-contract.js';
import { ApiRefusal } from './api-refusal.js';
import { bearerClaims } from './bearer-claims.js';
import type { BuilderServices } from './builder-services.js';
import { catalogueRoutes } from './catalogue-routes.js';
import { connectionRoutes } from './connection-routes.js';
import { triggerEvents } from './event-stream.js';
import { jsonBodyParser } from './json-body.js';
import { oauthCallback } from './oauth-callback.js';
import { builderOpenApiDocument } from './openapi-document.js';
import { checkedOrigin } from './origin-check.js';
import type { RouteSpec } from './route-spec.js';
import { testStep } from './step-test-run.js';
import { subscriptionRoutes } from './subscription-routes.js';
import { tokenWindow } from './token-rate-limit.js';
import type { BuilderPrincipal } from './token-verifier.js';

const HANDLERS: Record<Exclude<RouteId, 'openApiDocument' | 'oauthCallback'>, RouteHandler> = {
  ...catalogueRoutes,
  testStep,
  ...connectionRoutes,
  ...subscriptionRoutes,
  triggerEvents,
};

let openApi: string | undefined;
const openApiDocument = () => {
  openApi ??= JSON.stringify(builderOpenApiDocument(packageVersion()));
  return openApi;
};

/** Methods a path of the API may be asked with; those none of its routes takes are answered 405. */
const METHODS = ['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'HEAD'] as const;

/** A route's path under the prefix, in the router's syntax (`{name}` is `:name`). */
const routerPath = (path: string) => path.slice(API_PREFIX.length).replace(/\{(\w+)\}/g, ':$1');

const CLAIMS = Symbol('claims');
type Authorised = FastifyRequest & { [CLAIMS]: BuilderPrincipal };
const claimsOf = (request: FastifyRequest) => (request as Authorised)[CLAIMS];

const noRoute = () => new ServerRefusal(404, 'route_not_found', 'Not found.');

/**
 * A path parameter is one whole segment: one that is empty or decodes to a
 * `/` names no route, as it named none before the router decoded it.
 */
async function wholeSegments(request: FastifyRequest) {
  const params = request.params as Record<string, string>;
  if (Object.values(params).some((value) => !value || value.includes('/'))) throw noRoute();
}

/** The bearer token's claims (builder scope), then its rate: before any body is read. */
function authorise(services: BuilderServices, count: CountRequest) {
  return async (request: FastifyRequest) => {
    (request as Authorised)[CLAIMS] = await bearerClaims(
      request.headers.authorization,
      services.options.tokens,
    );
    await count(request);
  };
}

const sendJson = (reply: FastifyReply, text: string) => reply.headers(JSON_HEADERS).send(text);

/** The framework route of one table entry: the table's method, path and zod schemas, then its handler. */
function frameworkRoute(route: RouteSpec, services: BuilderServices, count: CountRequest): RouteOptions {
  const schema = {
    ...(route.query && { querystring: route.query }),
    ...(route.body && { body: route.body }),
  };
  // HEAD is not a method of the API: it is answered 405 like any other it does not take.
  const base = { method: route.method, url: routerPath(route.path), schema, exposeHeadRoute: false };
  if (route.id === 'openApiDocument') {
    return { ...base, onRequest: wholeSegments, handler: (_, reply) => sendJson(reply, openApiDocument()) };
  }
  if (route.id === 'oauthCallback') {
    return {
      ...base,
      onRequest: wholeSegments,
      handler: (request, reply) => oauthCallback(services, request, reply),
    };
  }
  const handler = HANDLERS[route.id as keyof typeof HANDLERS];
  return {
    ...base,
    onRequest: [wholeSegments, authorise(services, count)],
    handler: async (request, reply) => {
      const claims = claimsOf(request);
      const result = await handler({
        claims,
        tenant: services.contexts.of(claims.tenant),
        params: request.params as Record<string, string>,
        query: request.query ?? {},
        body: request.body ?? {},
        origin: request.headers.origin,
        server: services,
        request,
        reply,
      });
      if (result === ANSWERED) return reply;
      return sendJson(reply, JSON.stringify(route.response.parse(result)));
    },
  };
}

/** The 405 routes: each path of the table, asked with a method none of its routes takes. */
function wrongMethods(app: FastifyInstance) {
  const methods = new Map<string, string[]>();
  for (const route of ROUTES) methods.set(route.path, [...(methods.get(route.path) ?? []), route.method]);
  for (const [path, allowed] of methods) {
    app.route({
      method: METHODS.filter((method) => !allowed.includes(method)),
      url: routerPath(path),
      onRequest: wholeSegments,
      handler: async () => {
        throw new ApiRefusal(405, 'method_not_allowed', `Use ${allowed.join(' or ')}.`);
      },
    });
  }
}

/**
 * The browser's side first, before the token is read: a loopback server
 * answers only loopback Host names, a foreign Origin is refused, and a
 * preflight must name its Origin.
 */
function guardOrigin(services: BuilderServices) {
  return async (request: FastifyRequest) => {
    startTiming(request);
    const origin = checkedOrigin(services.origins(), request.headers);
    if (request.method === 'OPTIONS' && !origin) {
      throw new ApiRefusal(400, 'input_invalid', 'A preflight needs an Origin.');
    }
  };
}

/** An empty body is `{}`, as a page that sends none means; anything else goes to the route's zod schema as it is. */
const emptyBodyAsObject: typeof zodValidatorCompiler = (route) => {
  const validate = zodValidatorCompiler(route);
  const { httpPart } = route as { httpPart?: string };
  return httpPart === 'body' ? (data) => validate(data ?? {}) : validate;
};

/**
 * The API under `/v1`, as a plugin: origin guard, CORS for the allowed
 * origins (credentials included, for a sign-in's cookie), the table's
 * routes with their zod schemas, each token's rate, and the capped JSON
 * body; every refusal goes to the server's answer (api-answer.ts).
 */
export function apiRoutes(services: BuilderServices, maxBodyBytes: number) {
  return async (app: FastifyInstance) => {
    app.addHook('onRequest', guardOrigin(services));
    await allowNamedOrigins(app, {
      allows: (origin) => services.origins().allows(origin),
      methods: ['GET', 'POST', 'DELETE'],
      headers: ['authorization', 'content-type'],
      maxAgeSeconds: 600,
    });
    app.addHook('onSend', timeJsonAnswer);
    app.setNotFoundHandler(async () => {
      throw noRoute();
    });
    app.setValidatorCompiler(emptyBodyAsObject);
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', jsonBodyParser(maxBodyBytes));
    const count = await rateLimitBy(
      app,
      tokenWindow(services.options.rateLimit),
      (request) => claimsOf(request).tokenId,
      tooMany,
    );
    for (const route of ROUTES) app.route(frameworkRoute(route, services, count));
    wrongMethods(app);
  };
}

const tooMany = (retryAfterMs: number) =>
  new ApiRefusal(
    429,
    'rate_limited',
    'Too many requests with this token; wait and try again.',
    [],
    retryAfterMs,
  );
