/**
 * One side of the otel figure (issue 39), in a process of its own since an
 * SDK's registration is process-wide: the client CPU per get_ticket_info
 * call, ours and the bare fetch baseline interleaved (cpu-sides.mjs), with
 *   absent: `@opentelemetry/*` cannot be imported (run under hide-opentelemetry.mjs);
 *   api:    installed, no SDK registered (the library looks and loads nothing);
 *   sdk:    the SDK registered, as an embedder would: a tracer provider with a
 *           BatchSpanProcessor whose exporter drops the batches, a meter
 *           provider whose reader never exports within the run, the
 *           AsyncLocalStorage context manager and the W3C propagator.
 * Prints `{ oursUs, bareUs, spans }` as JSON.
 *
 *   node otel-child.mjs <build> <sandbox JSON> <absent|api|sdk> <sizes JSON>
 */
import { measureSides } from './cpu-sides.mjs';
import { bareClient, benchRuntime, loadClient, PER_CALL_CASES, recordRequests } from './per-call.mjs';

const [build, sandboxJson, mode, sizesJson] = process.argv.slice(2);
const sandbox = JSON.parse(sandboxJson);
const sizes = JSON.parse(sizesJson);
const exported = { spans: 0, flush: async () => {} };

async function registerSdk() {
  const [api, { AsyncLocalStorageContextManager }, { W3CTraceContextPropagator }, metricsSdk, traceSdk] =
    await Promise.all([
      import('@opentelemetry/api'),
      import('@opentelemetry/context-async-hooks'),
      import('@opentelemetry/core'),
      import('@opentelemetry/sdk-metrics'),
      import('@opentelemetry/sdk-trace-base'),
    ]);
  const dropping = {
    export(spans, done) {
      exported.spans += spans.length;
      done({ code: 0 });
    },
    shutdown: async () => {},
  };
  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const tracerProvider = new traceSdk.BasicTracerProvider({
    spanProcessors: [new traceSdk.BatchSpanProcessor(dropping)],
  });
  api.trace.setGlobalTracerProvider(tracerProvider);
  exported.flush = () => tracerProvider.forceFlush();
  const reader = new metricsSdk.PeriodicExportingMetricReader({
    exporter: new metricsSdk.InMemoryMetricExporter(metricsSdk.AggregationTemporality.CUMULATIVE),
    exportIntervalMillis: 3_600_000,
  });
  api.metrics.setGlobalMeterProvider(new metricsSdk.MeterProvider({ readers: [reader] }));
}

if (mode === 'sdk') await registerSdk();
else if (mode !== 'api' && mode !== 'absent') throw new Error(`mode must be absent, api or sdk, not ${mode}`);
const client = await loadClient(build);
const registry = client.createRegistry();
const runtime = benchRuntime(client, sandbox);
const entry = PER_CALL_CASES[0];
const recorded = await recordRequests(client, sandbox, registry, entry);
const figures = await measureSides(
  {
    ours: (unique) =>
      registry.invoke(runtime, entry.step, { connection: 'bench', input: entry.input(unique) }),
    bare: bareClient(recorded, client.sharedDispatcher()),
  },
  sizes,
);
process.stdout.write(
  `${JSON.stringify({ oursUs: figures.ours, bareUs: figures.bare, spans: exported.spans })}\n`,
);
process.exit(0);
