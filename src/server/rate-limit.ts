import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** How many requests one caller (a token, for one) may make per window. */
export interface RateWindow {
  requests: number;
  windowMs: number;
  /** Callers tracked at once; past it the oldest windows are forgotten, so a flood of callers cannot grow memory. */
  maxTracked: number;
}

/** Counts one request of its caller; rejects with the server's own refusal past the limit. */
export type CountRequest = (request: FastifyRequest) => Promise<void>;

/** Required when a server is made, not when this module is, as Fastify itself is (app-server.ts). */
const loadRateLimit = () =>
  createRequire(import.meta.url)('@fastify/rate-limit') as typeof import('@fastify/rate-limit');

/**
 * A fixed window per caller, kept by Fastify's rate-limit plugin in the
 * process's memory. The server says who the caller is (`keyOf`, once it
 * knows: after a token is verified, so a forged token cannot spend another's
 * requests) and how a request past the limit is refused (`refuse`, given
 * the time until the window ends, for Retry-After). The plugin adds no
 * header of its own: the refusal carries what the server says.
 */
export async function rateLimitBy(
  app: FastifyInstance,
  window: RateWindow,
  keyOf: (request: FastifyRequest) => string,
  refuse: (retryAfterMs: number) => Error,
): Promise<CountRequest> {
  await app.register(loadRateLimit(), { global: false, cache: window.maxTracked });
  const count = app.createRateLimit({
    max: window.requests,
    timeWindow: window.windowMs,
    keyGenerator: keyOf,
  });
  return async (request) => {
    const verdict = await count(request);
    if (!verdict.isAllowed && verdict.isExceeded) throw refuse(verdict.ttl);
  };
}
