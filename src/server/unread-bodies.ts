import type { FastifyInstance } from 'fastify';

/**
 * Leaves every request body of `app` (a plugin's scope, or the whole app)
 * unread by the framework, whatever its content type, for the route to read
 * with the capped reader (`request.raw`): the intake looks a hook up before
 * it reads a byte, so a body nothing can verify is never held, and verifies
 * the signature over the bytes exactly as sent.
 */
export function leaveBodiesUnread(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
}
