import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestTarget } from '../http/request-target.js';
import type { BuilderServices } from './builder-services.js';
import { answerCallback } from './callback-page.js';
import { clearedFlowCookie, flowCookieScope } from './flow-cookie.js';
import { FLOW_TTL_MS } from './oauth-flows.js';

/** Where every provider comes back to, under the server's public URL; the flow cookie's Path is this. */
export const callbackUrl = (services: BuilderServices) => `${services.publicUrl()}/v1/oauth/callback`;

/**
 * The provider's redirect back (`oauthCallback`): the flow its state names
 * is settled with the browser's cookie as the proof it is the starting
 * browser, the flow's cookie is forgotten, and the page says how it went.
 */
export async function oauthCallback(
  services: BuilderServices,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const query = requestTarget(request.raw)?.searchParams ?? new URLSearchParams();
  const flow = await services.flows.complete(query, request.headers.cookie, (tenant) =>
    services.contexts.of(tenant),
  );
  if (flow) {
    reply.header(
      'set-cookie',
      clearedFlowCookie(flow.flowId, flowCookieScope(callbackUrl(services), FLOW_TTL_MS)),
    );
  }
  const answer = answerCallback(flow);
  return reply.code(answer.status).headers(answer.headers).send(answer.body);
}
