import type { FastifyRequest } from 'fastify';
import { checkDeclaredLength, declaredLength, readCappedRequest } from '../server/capped-body.js';
import { ServerRefusal } from '../server/server-refusal.js';

/** The longest a client may take to send a body: a page sends a few KB at once. */
export const BODY_DEADLINE_MS = 10_000;

/**
 * The API's body parser (every content type goes through it): the body of a
 * route that takes one, as JSON. Refused unread past `maxBytes` (its
 * declared length) or as soon as it grows past it (the shared capped
 * reader), refused when it has not arrived within the deadline, and
 * refused when it declares a length but is not JSON. An empty body is `{}`.
 * A route that takes no body leaves it unread, whatever it is. Refusals are
 * the plumbing's, which the API's answer words as its own (api-answer.ts).
 */
export function jsonBodyParser(maxBytes: number) {
  return async (request: FastifyRequest): Promise<unknown> => {
    if (!request.routeOptions.schema?.body) return undefined;
    const declared = declaredLength(request.headers);
    checkDeclaredLength(declared, maxBytes);
    if (declared && !/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
      throw new ServerRefusal(415, 'unsupported_media_type', 'Send the body as application/json.');
    }
    const bytes = await readCappedRequest(request.raw, { limit: maxBytes, deadlineMs: BODY_DEADLINE_MS });
    const text = bytes.toString('utf8');
    if (!text.trim()) return {};
    try {
      return JSON.parse(text);
    } catch {
      throw new ServerRefusal(400, 'invalid_json', 'The request body is not valid JSON.');
    }
  };
}
