import type { Intake } from './intake.js';

async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    // Stopping early (413) cancels the rest of the upload instead of reading it.
    await reader.cancel().catch(() => undefined);
  }
}

/**
 * The intake as a fetch-style handler, `(Request) => Promise<Response>`:
 * mounts as it is in Hono, a Next.js route handler, Deno or Bun.
 */
export function toFetchHandler(intake: Intake): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const answer = await intake.handle({
      method: request.method,
      path: `${url.pathname}${url.search}`,
      headers: request.headers,
      body: request.body ? chunksOf(request.body) : new Uint8Array(),
    });
    return Response.json(answer.body, { status: answer.status });
  };
}
