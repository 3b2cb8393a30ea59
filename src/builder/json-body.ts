import type { IncomingMessage } from 'node:http';
import { ApiRefusal } from './api-refusal.js';

/** The longest a client may take to send a body: a page sends a few KB at once. */
export const BODY_DEADLINE_MS = 10_000;

/**
 * The request body as JSON, refused unread past `maxBytes` (its declared
 * length) or as soon as it grows past it, and refused when it has not
 * arrived within the deadline. An empty body is `{}`.
 */
export async function readJsonBody(request: IncomingMessage, maxBytes: number): Promise<unknown> {
  const declared = Number(request.headers['content-length'] ?? Number.NaN);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const type = request.headers['content-type'] ?? '';
  if (declared > 0 && !/^application\/json\b/i.test(type)) {
    throw new ApiRefusal(415, 'unsupported_media_type', 'Send the body as application/json.');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const timer = setTimeout(() => request.destroy(new Error('body deadline')), BODY_DEADLINE_MS);
  try {
    for await (const chunk of request as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) throw tooLarge(maxBytes);
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof ApiRefusal) throw error;
    throw new ApiRefusal(408, 'request_timeout', 'The request body did not arrive in time.');
  } finally {
    clearTimeout(timer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiRefusal(400, 'input_invalid', 'The request body is not valid JSON.', [
      { path: '(body)', message: 'not JSON' },
    ]);
  }
}

function tooLarge(maxBytes: number): ApiRefusal {
  return new ApiRefusal(413, 'body_too_large', `The request body is over ${maxBytes} bytes.`);
}
