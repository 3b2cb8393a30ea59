import type { ServerResponse } from 'node:http';

/** A JSON-RPC error answer with no id, as the MCP transport gives for a request it cannot take. */
export function answerMcpError(
  response: ServerResponse,
  status: number,
  message: string,
  options: { code?: number; headers?: Record<string, string> } = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...options.headers });
  response.end(
    JSON.stringify({ jsonrpc: '2.0', error: { code: options.code ?? -32000, message }, id: null }),
  );
}
