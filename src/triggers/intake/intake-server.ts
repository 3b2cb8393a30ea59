import { createServer, type Server } from 'node:http';
import { serverTimeoutOptions } from '../../server/server-timeouts.js';
import type { Intake } from './intake.js';
import { toNodeListener } from './node-listener.js';

/**
 * How much of the machine a flood of deliveries can take. Every body
 * that is held belongs to a known subscription (the path is looked up
 * first), so what a server holds is at most `maxConnections` times the
 * intake's body limit: 128 x 256 KB = 32 MB with the defaults.
 */
export interface IntakeServerLimits {
  /** Connections open at once; a connection past it is closed as it arrives. Default 128. */
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

/** A `node:http` server for the intake with those limits in force. */
export function createIntakeServer(intake: Intake, limits: IntakeServerLimits = {}): Server {
  const { maxConnections, headersTimeoutMs, requestTimeoutMs } = {
    ...DEFAULT_INTAKE_SERVER_LIMITS,
    ...limits,
  };
  const server = createServer(
    serverTimeoutOptions({ headersTimeoutMs, requestTimeoutMs }),
    toNodeListener(intake),
  );
  server.maxConnections = maxConnections;
  return server;
}
