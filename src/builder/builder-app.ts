import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestTarget } from '../http/request-target.js';
import { type AppServer, createAppServer } from '../server/app-server.js';
import { BUILDER_MAX_BODY_BYTES } from '../server/body-limits.js';
import { leaveBodiesUnread } from '../server/unread-bodies.js';
import { instruments, safeAttributes } from '../telemetry/index.js';
import type { Intake } from '../triggers/intake/intake.js';
import { intakeRoutes } from '../triggers/intake/intake-routes.js';
import { API_PREFIX, builderAnswer } from './api-answer.js';
import { ApiRefusal } from './api-refusal.js';
import { apiRoutes } from './api-routes.js';
import { builderServerLimits } from './builder-connection-limits.js';
import type { BuilderServices } from './builder-services.js';
import { checkedOrigin } from './origin-check.js';
import { serveStaticFile } from './static-files.js';

/** Counts one builder API request and its time, by method, route template and status. */
function recordBuilderRequest(request: { method: string; route: string; status: number }, seconds: number) {
  const meters = instruments();
  if (!meters) return;
  const attributes = safeAttributes({
    'http.request.method': request.method,
    'http.route': request.route,
    'http.response.status_code': request.status,
  });
  meters.builderRequests.add(1, attributes);
  meters.builderRequestDuration.record(seconds, attributes);
}

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
 * The builder server on the shared app server (connection limits and
 * timeouts before any route or token is read): the API under `/v1`, the
 * tenants' intakes under `/hooks/`, and the page (when there is one) at
 * every other path.
 */
export function builderAppServer(services: BuilderServices, intake: Intake): AppServer {
  const maxBodyBytes = services.options.maxBodyBytes ?? BUILDER_MAX_BODY_BYTES;
  const answer = builderAnswer(maxBodyBytes, (request, reply) =>
    servePage(services, request, reply).catch((error: unknown) => answer(error, request, reply)),
  );
  return createAppServer({
    limits: builderServerLimits(services.options.connectionLimits),
    bodyLimit: maxBodyBytes,
    answer,
    requestTelemetry: { routePrefix: API_PREFIX, record: recordBuilderRequest },
    routes: (app) => {
      // A path no route has reads no body: the page never takes one.
      leaveBodiesUnread(app);
      // The tenants' intakes, the same as `toolsteps listen`'s, read their own raw bytes within their own limit.
      app.register(intakeRoutes(intake));
      app.register(apiRoutes(services, maxBodyBytes), { prefix: API_PREFIX });
    },
  });
}
