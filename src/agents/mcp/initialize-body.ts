import type { IncomingMessage } from 'node:http';

/** Far above any initialize a client sends, far below what a flood of them could pile up. */
export const MAX_INITIALIZE_BYTES = 64 * 1024;

export type InitializeBody =
  | { ok: true; message: unknown }
  | { ok: false; status: 400 | 413; code: number; message: string };

function isInitialize(message: unknown): boolean {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as { method?: unknown }).method === 'initialize'
  );
}

function parsed(body: Buffer): InitializeBody {
  let message: unknown;
  try {
    message = JSON.parse(body.toString('utf8'));
  } catch {
    return { ok: false, status: 400, code: -32700, message: 'Parse error: Invalid JSON' };
  }
  const starts = Array.isArray(message) ? message.some(isInitialize) : isInitialize(message);
  if (!starts) {
    return {
      ok: false,
      status: 400,
      code: -32000,
      message: 'No session: start one with an initialize request (a POST without Mcp-Session-Id).',
    };
  }
  return { ok: true, message };
}

/**
 * Reads the body of a POST that carries no session, up to `limit` bytes, and
 * says whether it starts one. Only an initialize does: anything else is
 * answered without building a server or a transport, so a flood of other
 * requests costs no more than reading them.
 */
export function readInitializeBody(
  request: IncomingMessage,
  limit = MAX_INITIALIZE_BYTES,
): Promise<InitializeBody> {
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
      resolve({ ok: false, status: 413, code: -32000, message: `An initialize is at most ${limit} bytes.` });
    };
    request.on('data', onData);
    request.once('end', () => resolve(parsed(Buffer.concat(chunks))));
    const cut = () =>
      resolve({ ok: false, status: 400, code: -32000, message: 'The request ended before its body.' });
    request.once('error', cut);
    request.once('close', cut);
  });
}
