import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Intake } from './intake.js';
import { nodeDelivery } from './node-delivery.js';

/**
 * The intake as a `node:http` request listener, for `http.createServer`,
 * Express or Fastify's raw handler. A body left unread (too large) is
 * drained and the connection closed after the answer.
 */
export function toNodeListener(intake: Intake): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    void nodeDelivery(intake, request).then(({ status, text, unread }) => {
      if (unread) response.setHeader('connection', 'close');
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(text);
    });
  };
}
