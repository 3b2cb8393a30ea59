import type { Server } from 'node:http';
import { createAppServer } from '../../server/app-server.js';
import { INTAKE_MAX_BODY_BYTES } from '../../server/body-limits.js';
import { ServerRefusal } from '../../server/server-refusal.js';
import type { Intake } from './intake.js';
import { addIntakeRoutes, answerDelivery } from './intake-routes.js';

/**
 * How much of the machine a flood of deliveries can take. Every body
 * that is held belongs to a known subscription (the path is looked up
 * first), so what a server holds is at most `maxConnections` times the
 * intake's body limit: 128 x 256 KB = 32 MB with the defaults.
 */
export interface IntakeServerLimits {
  /**
   * Connections open at once. Past it, a new connection takes the place of
   * the oldest one answering no request (still sending its headers, or
   * idle), and is closed as it arrives only when every one is answering.
   * Default 128.
   */
  maxConnections?: number;
  /** Time a request may take to send its headers. Default 10 s. */
  headersTimeoutMs?: number;
  /** Time a request may take to arrive whole, headers and body; then it is answered 408 and closed. Default 20 s. */
  requestTimeoutMs?: number;
}

/** Providers send a few KB at once and retry what fails: seconds are plenty, and a slow sender gives way. */
export const DEFAULT_INTAKE_SERVER_LIMITS: Readonly<Required<IntakeServerLimits>> = Object.freeze({
  maxConnections: 128,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 20_000,
});

/**
 * A server for the intake alone (`toolsteps listen`) with those limits in
 * force: every request, whatever its path or method, gets the intake's own
 * answer, so a path outside `/hooks/` is refused as an unknown hook is, in
 * the same time. Listen on the `node:http` server it returns; requests that
 * come before its routes are in wait for them.
 */
export function createIntakeServer(intake: Intake, limits: IntakeServerLimits = {}): Server {
  const { maxConnections, headersTimeoutMs, requestTimeoutMs } = {
    ...DEFAULT_INTAKE_SERVER_LIMITS,
    ...limits,
  };
  return createAppServer({
    // Providers send from a few addresses each: one address may hold all of it.
    limits: { maxConnections, maxConnectionsPerAddress: maxConnections, headersTimeoutMs, requestTimeoutMs },
    bodyLimit: INTAKE_MAX_BODY_BYTES,
    routes: (app) => addIntakeRoutes(app, intake),
    // A path or target the router takes no route for is still the intake's to refuse, as an unknown hook.
    answer: (error, request, reply) =>
      error instanceof ServerRefusal
        ? answerDelivery(intake, request, reply)
        : reply.code(500).header('content-type', 'application/json').send('{"status":"internal_error"}'),
  }).server;
}
