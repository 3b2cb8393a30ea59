import type { IncomingMessage } from 'node:http';
import { BodyTooLarge, declaredLength, readCappedRequest } from '../../server/capped-body.js';

export type McpRequestBody =
  | { ok: true; message: unknown }
  | { ok: false; status: 400 | 413; code: number; message: string };

/**
 * A POST's JSON-RPC message: its body read by the servers' one capped reader
 * (up to `limit` bytes; a declared length over it is refused before a byte
 * is read), then parsed here. Reading it here rather than in the SDK's
 * transport spares every call the web stream the SDK would read it through:
 * that and the web Request around it cost several times what the call's own
 * JSON-RPC handling does. Refusals come as the JSON-RPC errors the SDK gives.
 */
export async function readMcpRequestBody(request: IncomingMessage, limit: number): Promise<McpRequestBody> {
  let bytes: Buffer;
  try {
    bytes = await readCappedRequest(request, {
      limit,
      declared: declaredLength(request.headers),
    });
  } catch (error) {
    if (error instanceof BodyTooLarge) {
      return { ok: false, status: 413, code: -32000, message: `A request is at most ${limit} bytes.` };
    }
    return { ok: false, status: 400, code: -32000, message: 'The request ended before its body.' };
  }
  try {
    return {
      ok: true,
      message: JSON.parse(bytes.toString('utf8')),
    };
  } catch {
    return { ok: false, status: 400, code: -32700, message: 'Parse error: Invalid JSON' };
  }
}
