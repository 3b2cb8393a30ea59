/**
 * OpenTelemetry through its API only (docs/observability.md). The seam every
 * other folder uses; nothing here starts an SDK, and with none registered
 * nothing is imported (one global lookup per check).
 *
 * - `otelApi()` / `otelApiIfLoaded()` (load-otel.ts): `@opentelemetry/api`
 *   when a tracer or meter provider is registered, else undefined;
 *   `requireOtelApi(feature)` when a user asked for telemetry explicitly.
 * - `inSpan(name, {kind, attributes, links?, parent?}, fn)` (in-span.ts): runs
 *   `fn(span)` in an active span, or `fn(undefined)`; a throw is recorded as
 *   `error.type` and status ERROR. `markFailed` for failures returned.
 * - `injectTraceContext(carrier)`, `extractTraceContext(carrier)`,
 *   `withExtractedContext(carrier, fn)` (trace-context.ts): W3C `traceparent`
 *   and `tracestate` into and out of headers, job data, environments
 *   (upper-case keys read too).
 * - `instruments()` (instruments.ts): the metric instruments of the meter
 *   `toolsteps`, or undefined.
 * - `safeAttributes`, `setSafeAttributes`, `addSafeEvent`, `urlTemplate`,
 *   `hashedPersonId` (safe-attributes.ts): the one list of what may be an
 *   attribute, an event or a metric label.
 * - `tracedLogger(logger)`, `traceFields()` (traced-logger.ts): log lines
 *   inside a span carry `trace_id` and `span_id`.
 *
 * No exported signature of the package names an OpenTelemetry type: the
 * published declarations must compile without the peer installed.
 */
export { errorType, type InSpanOptions, inSpan, markFailed, type SpanKindName } from './in-span.js';
export { INSTRUMENTATION_NAME, instrumentationVersion } from './instrumentation-scope.js';
export { type Instruments, instruments, type ObservableResult } from './instruments.js';
export {
  metricsRegistered,
  OTEL_API_RANGE,
  type OtelApi,
  otelApi,
  otelApiIfLoaded,
  propagatorRegistered,
  requireOtelApi,
  telemetryRegistered,
  tracingRegistered,
} from './load-otel.js';
export {
  ATTRIBUTE_KEYS,
  type AttributeKey,
  type AttributeValue,
  addSafeEvent,
  EVENT_NAMES,
  type EventName,
  hashedPersonId,
  type SafeAttributes,
  safeAttributes,
  setSafeAttributes,
  urlTemplate,
} from './safe-attributes.js';
export {
  contextFromCarrier,
  extractTraceContext,
  injectTraceContext,
  type TraceCarrier,
  withExtractedContext,
} from './trace-context.js';
export { tracedLogger, traceFields } from './traced-logger.js';
