import type { IncomingMessage } from 'node:http';
import type * as z from 'zod';
import { fieldIssues, listIssues } from '../errors/field-issues.js';
import { InputError } from '../errors/index.js';
import { ApiRefusal } from './api-refusal.js';
import { readJsonBody } from './json-body.js';
import type { RouteSpec } from './route-spec.js';
import { BUILDER_SCOPE, type BuilderPrincipal, type TokenVerifier } from './token-verifier.js';

function parsed<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = fieldIssues(result.error);
  throw new InputError(`Invalid request ${where}: ${listIssues(issues)}.`, issues);
}

/** The route's query and body, each checked against its schema; a body is read only for a route that takes one. */
export async function requestParts(
  request: IncomingMessage,
  route: RouteSpec,
  url: URL,
  maxBodyBytes: number,
): Promise<{ query: unknown; body: unknown }> {
  const query = route.query ? parsed(route.query, Object.fromEntries(url.searchParams), 'query') : {};
  const body = route.body ? parsed(route.body, await readJsonBody(request, maxBodyBytes), 'body') : {};
  return { query, body };
}

/**
 * The claims of the request's bearer token, when it is valid and carries
 * the builder scope. Which check failed is not said beyond 401 or 403.
 */
export async function bearerClaims(
  request: IncomingMessage,
  tokens: TokenVerifier,
): Promise<BuilderPrincipal> {
  const match = /^Bearer ([\x21-\x7e]{1,4096})$/i.exec(request.headers.authorization ?? '');
  if (!match) throw new ApiRefusal(401, 'unauthorized', 'A bearer token is required.');
  const claims = await Promise.resolve()
    .then(() => tokens.verifyToken(match[1]!))
    .catch(() => undefined);
  if (!claims) throw new ApiRefusal(401, 'unauthorized', 'The bearer token is not valid.');
  if (!claims.scopes.includes(BUILDER_SCOPE)) {
    throw new ApiRefusal(403, 'forbidden', `The token lacks the "${BUILDER_SCOPE}" scope.`);
  }
  return claims;
}
