import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';

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

/** Required when a server is made, not when this module is, as Fastify itself is (app-server.ts). */
const loadCors = () => createRequire(import.meta.url)('@fastify/cors') as typeof import('@fastify/cors');

/**
 * CORS for the origins a server names, through Fastify's own CORS plugin
 * (preflights answered before any route or token is read): an allowed page
 * gets its exact origin back, never `*`, with
 * `Access-Control-Allow-Credentials` so that it may send and keep a cookie
 * the server sets (the builder's sign-in proof); any other origin gets no
 * CORS header at all. Refusing a foreign origin outright is the
 * HostOriginGuard's part, in a hook that runs before this one.
 */
export async function allowNamedOrigins(app: FastifyInstance, rules: NamedOriginsCors): Promise<void> {
  await app.register(loadCors(), {
    origin: (origin, allow) => allow(null, origin !== undefined && rules.allows(origin) ? origin : false),
    credentials: true,
    methods: [...rules.methods],
    allowedHeaders: [...rules.headers],
    maxAge: rules.maxAgeSeconds,
    // A preflight from an allowed origin is answered whatever else it names, as a browser expects.
    strictPreflight: false,
  });
}
