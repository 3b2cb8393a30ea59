import type { Context, SpanContext } from '@opentelemetry/api';
import { type OtelApi, otelApi, otelApiIfLoaded, propagatorRegistered } from './load-otel.js';

/**
 * Where a trace context travels between processes: HTTP headers, BullMQ job
 * data, an `--exec` child's environment (upper-cased there), an MCP request's
 * `_meta`. W3C Trace Context keys: `traceparent`, `tracestate`.
 */
export type TraceCarrier = Record<string, string>;

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The carrier's value for a W3C key, whatever its case (`TRACEPARENT` in an environment). */
function carried(carrier: TraceCarrier, key: string): string | undefined {
  return carrier[key] ?? carrier[key.toUpperCase()];
}

/**
 * Writes the active span's context into `carrier` (`traceparent`, and
 * `tracestate` when there is one) through the registered propagator, or as
 * W3C headers when none is registered. Writes nothing when no span is
 * active or telemetry is off. Returns the carrier.
 */
export function injectTraceContext(carrier: TraceCarrier): TraceCarrier {
  const api = otelApiIfLoaded();
  if (!api) return carrier;
  const active = api.context.active();
  if (propagatorRegistered()) {
    api.propagation.inject(active, carrier);
    return carrier;
  }
  const span = api.trace.getSpanContext(active);
  if (!span || !api.trace.isSpanContextValid(span)) return carrier;
  carrier.traceparent = `00-${span.traceId}-${span.spanId}-${(span.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
  const state = span.traceState?.serialize();
  if (state) carrier.tracestate = state;
  return carrier;
}

/** The context a carrier names, over `base`; `base` itself when the carrier names none. */
export function contextFromCarrier(
  api: OtelApi,
  carrier: TraceCarrier,
  base = api.context.active(),
): Context {
  if (propagatorRegistered()) {
    const lowered: TraceCarrier = {};
    for (const key of ['traceparent', 'tracestate']) {
      const value = carried(carrier, key);
      if (value !== undefined) lowered[key] = value;
    }
    return api.propagation.extract(base, lowered);
  }
  const span = parseTraceparent(api, carrier);
  return span ? api.trace.setSpanContext(base, span) : base;
}

function parseTraceparent(api: OtelApi, carrier: TraceCarrier): SpanContext | undefined {
  const match = TRACEPARENT.exec(carried(carrier, 'traceparent')?.trim() ?? '');
  if (!match) return undefined;
  const [, traceId = '', spanId = '', flags = '00'] = match;
  const span: SpanContext = { traceId, spanId, traceFlags: Number.parseInt(flags, 16) & 1, isRemote: true };
  if (!api.trace.isSpanContextValid(span)) return undefined;
  const state = carried(carrier, 'tracestate');
  return state ? { ...span, traceState: api.createTraceState(state) } : span;
}

/** The context a carrier names, over the active one; undefined when telemetry is off. */
export function extractTraceContext(carrier: TraceCarrier): Context | undefined {
  const api = otelApiIfLoaded();
  return api ? contextFromCarrier(api, carrier) : undefined;
}

/**
 * Runs `fn` with the carrier's trace context active, so spans it starts are
 * children of the remote span (an intake's, across a queue or a process);
 * runs it as it is when telemetry is off or the carrier names no context.
 */
export async function withExtractedContext<T>(carrier: TraceCarrier, fn: () => Promise<T>): Promise<T> {
  const api = await otelApi();
  if (!api) return fn();
  return api.context.with(contextFromCarrier(api, carrier), fn);
}
