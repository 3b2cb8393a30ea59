import type { FastifyReply, FastifyRequest } from 'fastify';
import * as z from 'zod';
import { fieldIssues, listIssues } from '../errors/field-issues.js';
import { InputError } from '../errors/index.js';
import { requestTarget } from '../http/request-target.js';
import { BodyTimedOut, BodyTooLarge } from '../server/capped-body.js';
import { ServerRefusal } from '../server/server-refusal.js';
import { ApiRefusal, errorAnswer } from './api-refusal.js';

/** Where the API lives; its routes' paths in the table start with it. */
export const API_PREFIX = '/v1';

const STARTED = Symbol('started');
type Timed = FastifyRequest & { [STARTED]?: number };

/** Marks the start of the server's own time on an API request: its turn in the API. */
export function startTiming(request: FastifyRequest): void {
  (request as Timed)[STARTED] = performance.now();
}

/** The headers every JSON answer of the API carries. */
export const JSON_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
} as const;

/**
 * Sends a JSON answer of the API, a refusal too, with its headers and its
 * `Server-Timing`: this server's own time on the request (`app`), from its
 * turn in the API to its JSON serialised, in ms. A provider call the
 * handler awaited is inside it; an answer from the options cache has none.
 * Operators and the benchmark read it without guessing at what the network
 * added. Set here rather than in an `onSend` hook, which every answer would
 * pay for (docs/benchmarks.md).
 */
export function sendJson(request: FastifyRequest, reply: FastifyReply, text: string): FastifyReply {
  const started = (request as Timed)[STARTED];
  reply.headers(JSON_HEADERS);
  if (started !== undefined)
    reply.header('server-timing', `app;dur=${(performance.now() - started).toFixed(2)}`);
  return reply.send(text);
}

const isApiPath = (path: string) => path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);

/**
 * A refusal of the plumbing's, a schema's or the body reader's, in the
 * API's own words: the codes and messages pages have always branched on.
 */
function asApiError(error: unknown, maxBodyBytes: number): unknown {
  const tooLarge = () =>
    new ApiRefusal(413, 'body_too_large', `The request body is over ${maxBodyBytes} bytes.`);
  if (error instanceof BodyTooLarge) return tooLarge();
  if (error instanceof BodyTimedOut)
    return new ApiRefusal(408, 'request_timeout', 'The request body did not arrive in time.');
  const { validationContext } = error as { validationContext?: string };
  if (error instanceof z.ZodError && validationContext) {
    const issues = fieldIssues(error);
    const where = validationContext === 'querystring' ? 'query' : validationContext;
    return new InputError(`Invalid request ${where}: ${listIssues(issues)}.`, issues);
  }
  if (!(error instanceof ServerRefusal)) return error;
  if (error.code === 'body_too_large') return tooLarge();
  if (error.code === 'host_not_allowed') return new ApiRefusal(403, 'forbidden', error.message);
  if (error.code === 'invalid_json') {
    return new ApiRefusal(400, 'input_invalid', error.message, [{ path: '(body)', message: 'not JSON' }]);
  }
  return new ApiRefusal(error.status, error.code, error.message);
}

/** Writes the API's error body for any failure, with the headers its status calls for. */
function answerError(error: unknown, request: FastifyRequest, reply: FastifyReply, maxBodyBytes: number) {
  if (reply.sent) return void reply.raw.destroy();
  const { status, body } = errorAnswer(asApiError(error, maxBodyBytes));
  if (status === 401) reply.header('www-authenticate', 'Bearer');
  if (body.error.retryAfterMs !== undefined)
    reply.header('retry-after', String(Math.ceil(body.error.retryAfterMs / 1000)));
  return sendJson(request, reply.code(status), JSON.stringify(body));
}

/**
 * The builder server's answer to whatever no route answered or a route
 * threw (the app server's `answer`). A path no route has is the page's
 * outside `/v1` (the static page, or its 404), and `route_not_found`
 * inside it; a path that does not decode names no route either. A request
 * line that is no URL at all is 400 in plain text, as before any route.
 */
export function builderAnswer(
  maxBodyBytes: number,
  page: (request: FastifyRequest, reply: FastifyReply) => unknown,
) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const target = requestTarget(request.raw);
    if (!target) return reply.code(400).type('text/plain').send('Bad request target.');
    const noRoute =
      error instanceof ServerRefusal &&
      (error.code === 'route_not_found' || error.code === 'bad_request_target');
    if (noRoute && !isApiPath(target.pathname)) return page(request, reply);
    const answered = noRoute ? new ApiRefusal(404, 'route_not_found', `No route ${target.pathname}.`) : error;
    return answerError(answered, request, reply, maxBodyBytes);
  };
}
