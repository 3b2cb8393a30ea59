import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BuilderServices } from './builder-services.js';
import type { TenantContext } from './tenant-contexts.js';
import type { BuilderPrincipal } from './token-verifier.js';

/** One authorised request, parsed against its route's schemas. */
export interface ApiCall {
  claims: BuilderPrincipal;
  tenant: TenantContext;
  params: Readonly<Record<string, string>>;
  /** Parsed by the route's own schemas: each handler reads them as those schemas' output. */
  query: unknown;
  body: unknown;
  /** The allowed browser origin that sent it, when one did. */
  origin: string | undefined;
  server: BuilderServices;
  request: FastifyRequest;
  /** The answer under way: a handler sets headers on it (a sign-in's cookie), or takes it over (a stream). */
  reply: FastifyReply;
}

/** Returned by a handler that took over the answer and writes it itself (a stream). */
export const ANSWERED = Symbol('answered');

export type RouteHandler = (call: ApiCall) => Promise<unknown>;
