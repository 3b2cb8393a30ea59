import type { FastifyInstance, FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { HOOKS_PATH_PREFIX } from '../../model/subscription.js';
import { leaveBodiesUnread } from '../../server/unread-bodies.js';
import type { Intake } from './intake.js';
import { nodeDelivery } from './node-delivery.js';

/**
 * Answers one request with the intake's answer to it, as delivered (any
 * method, any path). Sent, and not returned: a reply is a thenable, and an
 * async handler that returns one has its promise wait on it, a listener on
 * the response's end and one more turn per delivery.
 */
export async function answerDelivery(
  intake: Intake,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const answer = await nodeDelivery(intake, request.raw);
  if (answer.unread) reply.header('connection', 'close');
  reply.code(answer.status).header('content-type', 'application/json').send(answer.text);
}

/** The hook paths, every method (the intake answers 405 to anything but POST), bodies left to the intake. */
export function addIntakeRoutes(app: FastifyInstance, intake: Intake): void {
  leaveBodiesUnread(app);
  app.all(`${HOOKS_PATH_PREFIX}*`, (request, reply) => answerDelivery(intake, request, reply));
}

/**
 * The intake's routes as a plugin, for a server that serves more than the
 * intake (the builder's): `app.register(intakeRoutes(intake))` serves
 * `/hooks/<subscription>` and `/hooks/<tenant>/<subscription>` with bodies
 * left unread in the plugin's scope only, the rest of the app parsing its
 * own as it does.
 */
export function intakeRoutes(intake: Intake): FastifyPluginCallback {
  return (app, _options, done) => {
    addIntakeRoutes(app, intake);
    done();
  };
}
