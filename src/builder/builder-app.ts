import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestTarget } from '../http/request-target.js';
import { HOOKS_PATH_PREFIX } from '../model/subscription.js';
import { type AppServer, createAppServer } from '../server/app-server.js';
import { BUILDER_MAX_BODY_BYTES } from '../server/body-limits.js';
import { leaveBodiesUnread } from '../server/unread-bodies.js';
import { API_PREFIX, builderAnswer } from './api-answer.js';
import { ApiRefusal } from './api-refusal.js';
import { apiRoutes } from './api-routes.js';
import { builderServerLimits } from './builder-connection-limits.js';
import type { BuilderServices } from './builder-services.js';
import { checkedOrigin } from './origin-check.js';
import { serveStaticFile } from './static-files.js';

type Listener = (request: IncomingMessage, response: ServerResponse) => void;

/** Anything outside `/v1` and the intakes: the static page when there is one, after the Host and Origin check. */
async function servePage(services: BuilderServices, request: FastifyRequest, reply: FastifyReply) {
  checkedOrigin(services.origins(), request.headers);
  const root = services.options.staticRoot;
  if (!root || (request.method !== 'GET' && request.method !== 'HEAD')) {
    throw new ApiRefusal(404, 'route_not_found', 'Not found.');
  }
  const answer = await serveStaticFile(root, requestTarget(request.raw)?.pathname ?? '/');
  return reply.code(answer.status).headers(answer.headers).send(answer.body);
}

/**
 * The tenants' intakes under `/hooks/`, the same as `toolsteps listen`'s:
 * each gets the request as it came, its body unread (it reads the raw bytes
 * it verifies, within its own limit), before any hook of the API's.
 */
function hookRoutes(intake: Listener) {
  return async (app: FastifyInstance) => {
    app.all(`${HOOKS_PATH_PREFIX}*`, async (request, reply) => {
      reply.hijack();
      intake(request.raw, reply.raw);
    });
  };
}

/**
 * The builder server on the shared app server (connection limits and
 * timeouts before any route or token is read): the API under `/v1`, the
 * tenants' intakes under `/hooks/`, and the page (when there is one) at
 * every other path.
 */
export function builderAppServer(services: BuilderServices, intake: Listener): AppServer {
  const maxBodyBytes = services.options.maxBodyBytes ?? BUILDER_MAX_BODY_BYTES;
  const answer = builderAnswer(maxBodyBytes, (request, reply) =>
    servePage(services, request, reply).catch((error: unknown) => answer(error, request, reply)),
  );
  return createAppServer({
    limits: builderServerLimits(services.options.connectionLimits),
    bodyLimit: maxBodyBytes,
    answer,
    routes: (app) => {
      // Every body is left to the route that takes one: the intake's raw bytes, the API's capped JSON.
      leaveBodiesUnread(app);
      app.register(hookRoutes(intake));
      app.register(apiRoutes(services, maxBodyBytes), { prefix: API_PREFIX });
    },
  });
}
