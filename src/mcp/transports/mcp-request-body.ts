import type { IncomingMessage } from 'node:http';

/** The MCP SDK's own cap on a request body (4 MiB), kept for the POSTs of a session, which this server now reads. */
export const MAX_REQUEST_BYTES = 4 * 1024 * 1024;

export type McpRequestBody =
  | { ok: true; message: unknown }
  | { ok: false; status: 400 | 413; code: number; message: string };

/**
 * Reads a POST's JSON body from the Node stream, up to `limit` bytes (a
 * declared length over it is refused before a byte is read), and parses
 * it. Reading it here rather than in the SDK's transport spares every call
 * the web stream the SDK would read it through: that and the web Request
 * around it cost several times what the call's own JSON-RPC handling does.
 */
export function readMcpRequestBody(request: IncomingMessage, limit: number): Promise<McpRequestBody> {
  const tooLarge = {
    ok: false,
    status: 413,
    code: -32000,
    message: `A request is at most ${limit} bytes.`,
  } as const;
  if (Number(request.headers['content-length']) > limit) return Promise.resolve(tooLarge);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      // Stop reading: the answer says so and closes the connection with the rest unread.
      request.off('data', onData);
      request.pause();
      resolve(tooLarge);
    };
    request.on('data', onData);
    request.once('end', () => {
      try {
        resolve({ ok: true, message: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      } catch {
        resolve({ ok: false, status: 400, code: -32700, message: 'Parse error: Invalid JSON' });
      }
    });
    const cut = () =>
      resolve({ ok: false, status: 400, code: -32000, message: 'The request ended before its body.' });
    request.once('error', cut);
    request.once('close', cut);
  });
}
