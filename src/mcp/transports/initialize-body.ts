import type { IncomingMessage } from 'node:http';
import { type McpRequestBody, readMcpRequestBody } from './mcp-request-body.js';

/** Far above any initialize a client sends, far below what a flood of them could pile up. */
export const MAX_INITIALIZE_BYTES = 64 * 1024;

export type InitializeBody = McpRequestBody;

function isInitialize(message: unknown): boolean {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as { method?: unknown }).method === 'initialize'
  );
}

/**
 * Reads the body of a POST that carries no session, up to `limit` bytes, and
 * says whether it starts one. Only an initialize does: anything else is
 * answered without building a server or a transport, so a flood of other
 * requests costs no more than reading them.
 */
export async function readInitializeBody(
  request: IncomingMessage,
  limit = MAX_INITIALIZE_BYTES,
): Promise<InitializeBody> {
  const body = await readMcpRequestBody(request, limit);
  if (!body.ok) {
    return body.status === 413 ? { ...body, message: `An initialize is at most ${limit} bytes.` } : body;
  }
  const { message } = body;
  const starts = Array.isArray(message) ? message.some(isInitialize) : isInitialize(message);
  if (!starts) {
    return {
      ok: false,
      status: 400,
      code: -32000,
      message: 'No session: start one with an initialize request (a POST without Mcp-Session-Id).',
    };
  }
  return body;
}
