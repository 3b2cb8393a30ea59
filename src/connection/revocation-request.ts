import type { Dispatcher } from 'undici';
import { NetworkError, TimeoutError } from '../errors/index.js';
import { redactSecrets } from '../errors/redaction.js';

/** The default deadline of one revocation request, headers and body together. */
export const DEFAULT_REVOCATION_TIMEOUT_MS = 15_000;
/** A revocation answer is empty or a few bytes; more than this is read no further. */
const ANSWER_LIMIT = 16 * 1024;

/** How a revocation request goes out: the runtime's token transport and clock-free deadline. */
export interface RevocationTransport {
  /** The fetch that sends it (the runtime's `fetch`, the one OAuth token requests use). */
  fetch: typeof globalThis.fetch;
  /** undefined: fetch's own global dispatcher. */
  dispatcher: Dispatcher | undefined;
  /** One deadline for the whole request (default 15 s). */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * Sends one revocation request and answers its status. The answer's body is
 * untrusted and unused: read up to a small cap (so the socket can be kept),
 * never parsed or quoted. Redirects are not followed: a revocation endpoint
 * that redirects is answered as its 3xx. A deadline that passes is a
 * TimeoutError, a broken connection a NetworkError; neither names a token.
 */
export async function sendRevocationRequest(
  transport: RevocationTransport,
  request: { method: 'DELETE' | 'POST'; url: string; headers: Record<string, string>; body?: string },
  secrets: readonly string[],
): Promise<number> {
  const where = `${request.method} ${new URL(request.url).pathname}`;
  const timeoutMs = transport.timeoutMs ?? DEFAULT_REVOCATION_TIMEOUT_MS;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = transport.signal ? AbortSignal.any([transport.signal, deadline]) : deadline;
  try {
    const response = await transport.fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal,
      dispatcher: transport.dispatcher,
    } as RequestInit);
    await drain(response);
    return response.status;
  } catch (thrown) {
    const context = { method: request.method, path: new URL(request.url).pathname };
    if (deadline.aborted) {
      throw new TimeoutError(`${where} (revocation) did not answer within ${timeoutMs} ms.`, {
        retryable: true,
        sent: 'unknown',
        context,
      });
    }
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    throw new NetworkError(`${where} (revocation at ${new URL(request.url).host}) failed on the network.`, {
      sent: 'unknown',
      context,
      cause: new Error(redactSecrets(message, secrets)),
    });
  }
}

async function drain(response: Response): Promise<void> {
  if (!response.body) return;
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > ANSWER_LIMIT) {
      await response.body.cancel().catch(() => undefined);
      return;
    }
  }
}
