import type { Context, Link, Span } from '@opentelemetry/api';
import { INSTRUMENTATION_NAME, instrumentationVersion } from './instrumentation-scope.js';
import { type OtelApi, otelApi, telemetryRegistered, tracingRegistered } from './load-otel.js';
import { type SafeAttributes, safeAttributes } from './safe-attributes.js';
import { contextFromCarrier, type TraceCarrier } from './trace-context.js';

/** The span kinds toolsteps starts, by the conventions' names. */
export type SpanKindName = 'internal' | 'client' | 'server' | 'producer' | 'consumer';

/** How `inSpan` starts its span. */
export interface InSpanOptions {
  kind: SpanKindName;
  attributes: SafeAttributes;
  /** Spans this one follows from without being their child (a queued event's intake). */
  links?: readonly TraceCarrier[] | undefined;
  /** The parent, from a hand-off's carrier (job data, a request's headers); default: the active span. */
  parent?: TraceCarrier | undefined;
}

/**
 * The code an error's `error.type` and status description take: a toolsteps
 * error's own `code` (`rate_limited`, `auth_failed`...), else the class name.
 * Never the message, which may quote a provider's answer.
 */
export function errorType(error: unknown): string {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  if (typeof code === 'string' && /^[\w.-]{1,64}$/.test(code)) return code;
  return error instanceof Error ? error.name : '_OTHER';
}

const KINDS: Record<SpanKindName, number> = { internal: 0, server: 1, client: 2, producer: 3, consumer: 4 };

/**
 * Runs `fn` inside a new active span when a tracer provider is registered,
 * else runs `fn(undefined)`, having loaded nothing unless a meter provider is
 * registered. A thrown error is recorded
 * by its type only (`error.type`, status ERROR; no message, no stack: they may
 * quote provider answers), and thrown on. `fn` may set the status itself, for
 * failures it returns rather than throws.
 */
export async function inSpan<T>(
  name: string,
  options: InSpanOptions,
  fn: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  if (!telemetryRegistered()) return fn(undefined);
  // Loaded for metrics alone too: the instruments of the work inside need the module.
  const api = await otelApi();
  if (!api || !tracingRegistered()) return fn(undefined);
  const parent = options.parent ? contextFromCarrier(api, options.parent) : api.context.active();
  const span = api.trace.getTracer(INSTRUMENTATION_NAME, instrumentationVersion()).startSpan(
    name,
    {
      kind: KINDS[options.kind],
      attributes: safeAttributes(options.attributes),
      ...(options.links ? { links: linksOf(api, options.links) } : {}),
    },
    parent,
  );
  try {
    return await api.context.with(api.trace.setSpan(parent, span), () => fn(span));
  } catch (error) {
    markFailed(api, span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** Sets a span's status to ERROR with the failure's `error.type`, for failures returned rather than thrown. */
export function markFailed(api: OtelApi, span: Span, error: unknown): void {
  const type = errorType(error);
  span.setAttribute('error.type', type);
  span.setStatus({ code: api.SpanStatusCode.ERROR, message: type });
}

function linksOf(api: OtelApi, carriers: readonly TraceCarrier[]): Link[] {
  return carriers.flatMap((carrier) => {
    const context = api.trace.getSpanContext(contextFromCarrier(api, carrier, api.ROOT_CONTEXT) as Context);
    return context && api.trace.isSpanContextValid(context) ? [{ context }] : [];
  });
}
