import type { IncomingHttpHeaders } from 'node:http';
import type { Context, Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest, RouteHandlerMethod } from 'fastify';
import {
  contextFromCarrier,
  INSTRUMENTATION_NAME,
  instrumentationVersion,
  markFailed,
  type OtelApi,
  otelApiIfLoaded,
  safeAttributes,
  type TraceCarrier,
  tracingRegistered,
} from '../telemetry/index.js';

/** What a server records of each request it traces: the route template and status, and how long it took. */
export interface RequestTelemetry {
  /** Only requests whose route's template starts with this are traced and counted (`/v1`). */
  routePrefix: string;
  /** Counts one answered request; called whether or not spans are on (a meter alone is enough). */
  record?(attributes: { method: string; route: string; status: number }, seconds: number): void;
}

/** The W3C trace context a caller sent, as a carrier: only those two headers, only when they are single strings. */
function carrierOf(headers: IncomingHttpHeaders): TraceCarrier {
  const carrier: TraceCarrier = {};
  for (const key of ['traceparent', 'tracestate'] as const) {
    const value = headers[key];
    if (typeof value === 'string') carrier[key] = value;
  }
  return carrier;
}

interface Traced {
  span: Span | undefined;
  context: Context | undefined;
  started: number;
}

/** Starts the request's SERVER span (`GET /v1/steps/:id`), a child of the caller's `traceparent` when it sent one. */
function startSpan(api: OtelApi | undefined, request: FastifyRequest, route: string): Traced {
  const started = performance.now();
  if (!api || !tracingRegistered()) return { span: undefined, context: undefined, started };
  const parent = contextFromCarrier(api, carrierOf(request.headers), api.ROOT_CONTEXT);
  const span = api.trace.getTracer(INSTRUMENTATION_NAME, instrumentationVersion()).startSpan(
    `${request.method} ${route}`,
    {
      kind: api.SpanKind.SERVER,
      attributes: safeAttributes({
        'http.request.method': request.method,
        'http.route': route,
        'url.scheme': 'http',
      }),
    },
    parent,
  );
  return { span, context: api.trace.setSpan(parent, span), started };
}

/**
 * A SERVER span per request (HTTP server conventions: method, route
 * template, status; https://opentelemetry.io/docs/specs/semconv/http/http-spans/)
 * and a count by route and status, for the routes under `routePrefix`. Added
 * by `createAppServer` only when telemetry is on as the server is made:
 * with it off a request runs no hook of it. The span is the active one
 * while the route's handler runs, so what the handler starts (a step's
 * invocation) is its child; it ends when the answer is written, hijacked
 * answers (a stream) included.
 */
export function addRequestSpans(app: FastifyInstance, telemetry: RequestTelemetry): void {
  const api = otelApiIfLoaded();
  const traced = new WeakMap<FastifyRequest, Traced>();
  const routeOf = (request: FastifyRequest) => {
    const route = request.routeOptions.url;
    return route?.startsWith(telemetry.routePrefix) ? route : undefined;
  };
  app.addHook('onRequest', (request, reply, done) => {
    const route = routeOf(request);
    if (route === undefined) return done();
    const entry = startSpan(api, request, route);
    traced.set(request, entry);
    reply.raw.once('close', () => {
      const status = reply.raw.statusCode;
      if (entry.span && api) {
        entry.span.setAttributes(safeAttributes({ 'http.response.status_code': status }));
        // A server span is an error when the server failed (5xx), not when it refused the caller.
        if (status >= 500) markFailed(api, entry.span, { code: String(status) });
        entry.span.end();
      }
      telemetry.record?.(
        { method: request.method, route, status },
        (performance.now() - entry.started) / 1000,
      );
    });
    done();
  });
  app.addHook('onRoute', (route) => {
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function tracedHandler(request, reply) {
      const context = traced.get(request)?.context;
      return context && api
        ? api.context.with(context, () => handler.call(this, request, reply))
        : handler.call(this, request, reply);
    };
  });
}
