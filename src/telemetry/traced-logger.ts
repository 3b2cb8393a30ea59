import { type Logger, silentLogger } from '../model/logger.js';
import { otelApiIfLoaded } from './load-otel.js';

/** The active span's ids as log fields, or undefined outside a span or with telemetry off. */
export function traceFields(): { trace_id: string; span_id: string } | undefined {
  const api = otelApiIfLoaded();
  if (!api) return undefined;
  const span = api.trace.getSpanContext(api.context.active());
  if (!span || !api.trace.isSpanContextValid(span)) return undefined;
  return { trace_id: span.traceId, span_id: span.spanId };
}

/**
 * `logger` with `trace_id` and `span_id` added to every line written inside
 * a span, so a log search and a trace find each other; with telemetry off a
 * line costs one lookup more.
 */
export function tracedLogger(logger: Logger): Logger {
  // Nothing is written through the silent logger, so there is nothing to trace: it stays as it is.
  if (tracedLoggers.has(logger) || logger === silentLogger) return logger;
  const traced: Logger = {
    debug: (message, data) => logger.debug(message, withTrace(data)),
    info: (message, data) => logger.info(message, withTrace(data)),
    warn: (message, data) => logger.warn(message, withTrace(data)),
  };
  tracedLoggers.add(traced);
  return traced;
}

const tracedLoggers = new WeakSet<Logger>();

function withTrace(data: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const fields = traceFields();
  return fields ? { ...data, ...fields } : data;
}
