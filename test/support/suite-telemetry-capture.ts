import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { metrics, trace } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, inject } from 'vitest';
import { metricItems, spanItems } from './private-data-scan.js';

/**
 * Run before each file of the `shared` and `nock` projects (vitest.config.ts):
 * registers the real OpenTelemetry SDK once per worker process, so every
 * invocation, HTTP attempt, refresh, delivery and server request the suite
 * makes in-process is traced and measured as an embedder's would be, and
 * writes what it exports, as the private-data scan reads it, to the run's
 * capture folder (test/support/global-setup.ts scans it when the run ends).
 * No context manager or propagator is registered: the files run as they do
 * without telemetry, but for the spans and the `traceparent` they send.
 */
interface Capture {
  file: string;
  reader: MetricReader;
}

const CAPTURE = Symbol.for('toolsteps.test.suite-telemetry-capture');

/** Collects only when the file ends. */
class OnFileEndReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** Appends each span, as the scan's item, to the process's capture file as it ends. */
function fileSpanExporter(file: string): SpanExporter {
  return {
    export(spans: ReadableSpan[], done) {
      appendFileSync(
        file,
        spanItems(spans)
          .map((item) => `${JSON.stringify(item)}\n`)
          .join(''),
      );
      done({ code: ExportResultCode.SUCCESS });
    },
    shutdown: async () => {},
  };
}

function register(folder: string): Capture {
  const file = path.join(folder, `${process.pid}.jsonl`);
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(fileSpanExporter(file))],
  });
  const reader = new OnFileEndReader();
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  return { file, reader };
}

const folder = inject('telemetryCaptureDir');
const holder = globalThis as { [CAPTURE]?: Capture };
if (folder) holder[CAPTURE] ??= register(folder);

afterAll(async () => {
  const capture = holder[CAPTURE];
  if (!capture) return;
  // Cumulative: each file's collection holds the process's totals so far, which the scan reads as text.
  const { resourceMetrics } = await capture.reader.collect();
  const items = metricItems(resourceMetrics);
  if (items.length) appendFileSync(capture.file, items.map((item) => `${JSON.stringify(item)}\n`).join(''));
});
