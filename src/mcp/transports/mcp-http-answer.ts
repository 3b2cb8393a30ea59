import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { ServerRefusal } from '../../server/server-refusal.js';

/** A JSON-RPC error with no id, as the MCP transport gives for a request it cannot take. */
function errorBody(message: string, code: number): string {
  return JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/** That error, written on Node's own response: the MCP route's, once Fastify has handed the response over. */
export function answerMcpError(
  response: ServerResponse,
  status: number,
  message: string,
  options: { code?: number; headers?: Record<string, string> } = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...options.headers });
  response.end(errorBody(message, options.code ?? -32000));
}

/**
 * How the MCP server answers what the plumbing refuses and what fails before
 * its route (`createAppServer`'s `answer`): a JSON-RPC error, a 401 with the
 * scheme to use (RFC 6750), and a 500 that says nothing of the failure.
 */
export function answerMcpRefusal(error: unknown, _request: unknown, reply: FastifyReply): void {
  if (reply.sent) return;
  const refusal = error instanceof ServerRefusal ? error : undefined;
  const status = refusal?.status ?? 500;
  const message =
    refusal?.code === 'route_not_found'
      ? 'Not found: the MCP endpoint is /mcp.'
      : (refusal?.message ?? 'The request could not be handled.');
  const headers: Record<string, string> = status === 401 ? { 'www-authenticate': 'Bearer' } : {};
  reply
    .code(status)
    .headers({ 'content-type': 'application/json', ...headers })
    .send(errorBody(message, -32000));
}
