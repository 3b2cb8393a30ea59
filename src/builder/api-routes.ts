import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { packageVersion } from '../disk/package-root.js';
import { type AnswerCors, namedOriginsCors } from '../server/named-origins-cors.js';
import { FixedWindows } from '../server/rate-limit.js';
import { ServerRefusal } from '../server/server-refusal.js';
import { zodValidatorCompiler } from '../server/zod-validator.js';
import { API_PREFIX, sendJson, startTiming } from './api-answer.js';
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
import { upgradeStep } from './step-upgrade.js';
import { subscriptionRoutes } from './subscription-routes.js';
import { tokenWindow } from './token-rate-limit.js';
import type { BuilderPrincipal } from './token-verifier.js';

const HANDLERS: Record<Exclude<RouteId, 'openApiDocument' | 'oauthCallback'>, RouteHandler> = {
  ...catalogueRoutes,
  testStep,
  upgradeStep,
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
function checkWholeSegments(request: FastifyRequest) {
  const params = request.params as Record<string, string>;
  for (const name in params) {
    const value = params[name];
    if (!value || value.includes('/')) throw noRoute();
  }
}

async function wholeSegments(request: FastifyRequest) {
  checkWholeSegments(request);
}

/**
 * A token route's own checks before any body is read, in one hook (each
 * hook Fastify runs costs every request): whole path segments, the bearer
 * token's claims (builder scope), then its rate. A callback hook that
 * answers in the request's own turn when the verifier does (session
 * tokens), without a promise.
 */
function authorise(services: BuilderServices, rate: FixedWindows) {
  /** The refusal of a verified token past its rate, if any; the claims are kept for the handler. */
  const admit = (request: FastifyRequest, claims: BuilderPrincipal): Error | undefined => {
    (request as Authorised)[CLAIMS] = claims;
    const retryAfterMs = rate.count(claims.tokenId);
    return retryAfterMs === undefined ? undefined : tooMany(retryAfterMs);
  };
  return (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    let claims: BuilderPrincipal | Promise<BuilderPrincipal>;
    try {
      checkWholeSegments(request);
      claims = bearerClaims(request.headers.authorization, services.options.tokens);
    } catch (error) {
      return done(error as Error);
    }
    // done() runs the next hooks at once: it is called once, outside any try.
    if (!(claims instanceof Promise)) return done(admit(request, claims));
    claims.then(
      (verified) => done(admit(request, verified)),
      (error: Error) => done(error),
    );
  };
}

/** The framework route of one table entry: the table's method, path and zod schemas, then its handler. */
function frameworkRoute(route: RouteSpec, services: BuilderServices, rate: FixedWindows): RouteOptions {
  const schema = {
    ...(route.query && { querystring: route.query }),
    ...(route.body && { body: route.body }),
  };
  // HEAD is not a method of the API: it is answered 405 like any other it does not take.
  const base = { method: route.method, url: routerPath(route.path), schema, exposeHeadRoute: false };
  if (route.id === 'openApiDocument') {
    return {
      ...base,
      onRequest: wholeSegments,
      handler: (request, reply) => sendJson(request, reply, openApiDocument()),
    };
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
    onRequest: authorise(services, rate),
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
      // Sent, and not returned: a reply is a thenable, and an async handler that returns one
      // has its promise wait on it for one more turn.
      sendJson(request, reply, JSON.stringify(route.response.parse(result)));
      return undefined;
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
 * answers only loopback Host names, a foreign Origin is refused, a
 * preflight must name its Origin, and an allowed one is answered here (CORS).
 * A callback hook, not an async one: it never waits, and every request runs it.
 */
function guardOrigin(services: BuilderServices, cors: AnswerCors) {
  return (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    startTiming(request);
    let origin: string | undefined;
    try {
      origin = checkedOrigin(services.origins(), request.headers);
      if (request.method === 'OPTIONS' && !origin) {
        throw new ApiRefusal(400, 'input_invalid', 'A preflight needs an Origin.');
      }
    } catch (error) {
      return done(error as Error);
    }
    if (!cors(request.method, origin, reply)) done();
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
    const cors = namedOriginsCors({
      allows: (origin) => services.origins().allows(origin),
      methods: ['GET', 'POST', 'PATCH', 'DELETE'],
      headers: ['authorization', 'content-type'],
      maxAgeSeconds: 600,
    });
    app.addHook('onRequest', guardOrigin(services, cors));
    // A preflight of any path reaches the hook above, which answers it; one it lets through names no route.
    app.options('*', async () => {
      throw noRoute();
    });
    app.setNotFoundHandler(async () => {
      throw noRoute();
    });
    app.setValidatorCompiler(emptyBodyAsObject);
    app.removeAllContentTypeParsers();
    const parseJson = jsonBodyParser(maxBodyBytes);
    // Under its own type too: Fastify keeps the parser it found for a Content-Type in a cache, but
    // not the catch-all, so with '*' alone every POST's header was parsed again to find none.
    app.addContentTypeParser('application/json', parseJson);
    app.addContentTypeParser('*', parseJson);
    const rate = new FixedWindows(tokenWindow(services.options.rateLimit));
    for (const route of ROUTES) app.route(frameworkRoute(route, services, rate));
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
