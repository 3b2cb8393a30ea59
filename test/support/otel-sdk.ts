import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/** A metric reader that collects only when asked: a test reads what was recorded so far. */
class OnDemandReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** The real OpenTelemetry SDK, registered globally with in-memory exporters, as an embedder would register theirs. */
export interface TestOtelSdk {
  /** Every span ended since the start (or the last `reset`). */
  spans(): ReadableSpan[];
  /** What the meter provider holds now (cumulative since the start). */
  metrics(): Promise<ResourceMetrics>;
  /** Forgets the ended spans. */
  reset(): void;
  /** Unregisters everything, so the process is as before (telemetry off). */
  shutdown(): Promise<void>;
}

/**
 * Registers a tracer provider (SimpleSpanProcessor into memory), a meter
 * provider (read on demand), the AsyncLocalStorage context manager and the
 * W3C propagator. `propagator: false` leaves the propagator out, to test the
 * library's own W3C fallback; `traces: false` the tracer provider (metrics alone). Files that call this run in a process of their
 * own (vitest.config.ts): the registration is process-wide.
 */
export function startTestOtelSdk(options: { propagator?: boolean; traces?: boolean } = {}): TestOtelSdk {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new OnDemandReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  if (options.traces !== false) trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  if (options.propagator !== false) propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  return {
    spans: () => exporter.getFinishedSpans(),
    async metrics() {
      const { resourceMetrics } = await reader.collect();
      return resourceMetrics;
    },
    reset: () => exporter.reset(),
    async shutdown() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      trace.disable();
      metrics.disable();
      propagation.disable();
      context.disable();
    },
  };
}
