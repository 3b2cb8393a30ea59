import * as z from 'zod';
import { builtOnce } from '../values/built-once.js';

/** What an API Call step returns: the status, the headers worth showing, the body as read, and whether it was redirected. */
export const ApiCallOutput = builtOnce(() =>
  z.object({
    status: z.number().int().describe('HTTP status of the provider response.'),
    headers: z
      .record(z.string(), z.string())
      .describe(
        'Selected response headers (content-type, location, etag, retry-after) and the rate-limit status headers (X-Rate-Limit-*, X-RateLimit-*, RateLimit-*, x-*-requests-left), names in lower case.',
      ),
    body: z
      .unknown()
      .describe(
        'Parsed JSON body, text, or null when empty. A binary answer (a file) is {base64, content_type, bytes}.',
      ),
    redirected: z
      .boolean()
      .describe('True when the provider redirected the request: the answer comes from where it pointed.'),
  }),
);

/** A binary answer (a file) as base64 with its media type; JSON and text as read. */
export function answerBody(body: unknown, headers: Headers): unknown {
  if (!(body instanceof Uint8Array)) return body ?? null;
  return {
    base64: Buffer.from(body).toString('base64'),
    content_type: headers.get('content-type') ?? 'application/octet-stream',
    bytes: body.byteLength,
  };
}

/** Response headers worth mapping; the rest stay out of outputs and logs. */
const EXPOSED_RESPONSE_HEADERS = ['content-type', 'location', 'etag', 'retry-after'];
/**
 * Rate-limit status, which providers report in headers (the spec: "the
 * current rate limit status can be read in API response headers"), under
 * every naming in use: `X-Rate-Limit-*`, `X-RateLimit-*`, `RateLimit-*`,
 * `RateLimit` / `RateLimit-Policy` (IETF draft), `x-*-requests-left`.
 */
const RATE_LIMIT_HEADER = /^(x-)?rate-?limit(-|$)|^x-[a-z]+-requests-left$/;
/** A provider could send many or long ones: only this many, this long, reach the output. */
const MAX_RATE_LIMIT_HEADERS = 16;
const MAX_HEADER_VALUE = 200;

/** The headers an API Call answer shows: the fixed few, then the rate-limit ones, capped. */
export function exposedHeaders(headers: Headers): Record<string, string> {
  const exposed: Record<string, string> = {};
  for (const name of EXPOSED_RESPONSE_HEADERS) {
    const value = headers.get(name);
    if (value !== null) exposed[name] = value.slice(0, MAX_HEADER_VALUE);
  }
  let rateLimitHeaders = 0;
  headers.forEach((value, name) => {
    if (!RATE_LIMIT_HEADER.test(name) || rateLimitHeaders >= MAX_RATE_LIMIT_HEADERS) return;
    exposed[name] = value.slice(0, MAX_HEADER_VALUE);
    rateLimitHeaders += 1;
  });
  return exposed;
}
