import type { FastifyReply } from 'fastify';

/** Which pages may read a server's answers, and what their preflights may ask for. */
export interface NamedOriginsCors {
  /** Whether a page of `origin` may read answers (the server's Host/Origin guard, `allows`). */
  allows(origin: string): boolean;
  /** The methods a preflight is told it may use. */
  methods: readonly string[];
  /** The request headers a preflight is told it may send. */
  headers: readonly string[];
  /** How long a browser may keep a preflight's answer. */
  maxAgeSeconds: number;
}

/** Answers a request's CORS part; true when it answered the request itself (a preflight). */
export type AnswerCors = (method: string, origin: string | undefined, reply: FastifyReply) => boolean;

/**
 * CORS for the origins a server names, called from the server's own first
 * hook once its Host/Origin guard has let the request in, so preflights are
 * answered before any route or token is read: an allowed page gets its
 * exact origin back, never `*`, with `Access-Control-Allow-Credentials` so
 * that it may send and keep a cookie the server sets (the builder's sign-in
 * proof); any other origin gets no CORS header at all, and every answer
 * says `Vary: Origin`. A preflight from an allowed origin is answered 204
 * whatever else it names, as a browser expects. The headers are those
 * Fastify's CORS plugin wrote, which did this before in a hook of its own
 * that every request paid for, an Origin or none (docs/benchmarks.md).
 */
export function namedOriginsCors(rules: NamedOriginsCors): AnswerCors {
  const methods = rules.methods.join(', ');
  const headers = rules.headers.join(', ');
  const maxAge = String(rules.maxAgeSeconds);
  return (method, origin, reply) => {
    reply.header('vary', 'Origin');
    if (origin === undefined || !rules.allows(origin)) return false;
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-allow-credentials', 'true');
    if (method !== 'OPTIONS') return false;
    reply.header('access-control-allow-methods', methods);
    reply.header('access-control-allow-headers', headers);
    reply.header('access-control-max-age', maxAge);
    // Safari waits for a body on a 204 without Content-Length 0.
    reply.code(204).header('content-length', '0').send();
    return true;
  };
}
