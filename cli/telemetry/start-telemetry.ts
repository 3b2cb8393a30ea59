import { randomUUID } from 'node:crypto';
import { packageVersion } from '../../src/disk/package-root.js';
import {
  exporterPackage,
  type SdkPackage,
  type TelemetrySettings,
  telemetryPackages,
} from './telemetry-settings.js';

/** How long a stopping command waits for the last spans and metrics to be sent. */
export const TELEMETRY_FLUSH_DEADLINE_MS = 5_000;

/** A started SDK: stop it last, once the servers are closed, so their last spans go out. */
export interface StartedTelemetry {
  /** Flushes and stops the providers, giving up after `deadlineMs`; never throws. */
  shutdown(deadlineMs?: number): Promise<void>;
}

/** Why no SDK was started although the variables asked for one: the packages it needs are missing. */
export class TelemetryPackagesMissing extends Error {
  constructor(readonly missing: Record<string, string>) {
    const names = Object.keys(missing);
    const install = Object.entries(missing).map(([name, range]) => `${name}@"${range}"`);
    super(
      `OTEL_* variables ask for telemetry, but ${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} not installed: running without it. Install with: npm install ${install.join(' ')}`,
    );
    this.name = 'TelemetryPackagesMissing';
  }
}

const notFound = (error: unknown, name: string) => {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = error instanceof Error ? error.message : '';
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && message.includes(name);
};

/**
 * Each import is written out whole, so the CLI's bundler leaves it to be
 * resolved at run time (the packages are optional peers, outside the bundle).
 */
const IMPORTS = {
  '@opentelemetry/api': () => import('@opentelemetry/api'),
  '@opentelemetry/resources': () => import('@opentelemetry/resources'),
  '@opentelemetry/sdk-trace-node': () => import('@opentelemetry/sdk-trace-node'),
  '@opentelemetry/sdk-metrics': () => import('@opentelemetry/sdk-metrics'),
  '@opentelemetry/exporter-trace-otlp-http': () => import('@opentelemetry/exporter-trace-otlp-http'),
  '@opentelemetry/exporter-trace-otlp-proto': () => import('@opentelemetry/exporter-trace-otlp-proto'),
  '@opentelemetry/exporter-metrics-otlp-http': () => import('@opentelemetry/exporter-metrics-otlp-http'),
  '@opentelemetry/exporter-metrics-otlp-proto': () => import('@opentelemetry/exporter-metrics-otlp-proto'),
} satisfies Record<SdkPackage, () => Promise<unknown>>;
type Imported = { [Name in keyof typeof IMPORTS]: Awaited<ReturnType<(typeof IMPORTS)[Name]>> };

/** Imports what the settings need, all or nothing: a missing package names every one missing. */
async function importPackages(settings: TelemetrySettings): Promise<Partial<Imported>> {
  const wanted = telemetryPackages(settings);
  const missing: Record<string, string> = {};
  const loaded: Record<string, unknown> = {};
  await Promise.all(
    Object.keys(wanted).map(async (name) => {
      try {
        loaded[name] = await IMPORTS[name as SdkPackage]();
      } catch (error) {
        if (!notFound(error, name)) throw error;
        missing[name] = wanted[name as SdkPackage] as string;
      }
    }),
  );
  if (Object.keys(missing).length) throw new TelemetryPackagesMissing(missing);
  return loaded as Partial<Imported>;
}

/** The process's resource: toolsteps and its version, overridden by `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES`. */
function resourceOf(resources: Imported['@opentelemetry/resources']) {
  return resources
    .defaultResource()
    .merge(
      resources.resourceFromAttributes({
        'service.name': 'toolsteps',
        'service.version': packageVersion(),
        'service.instance.id': randomUUID(),
      }),
    )
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
}

/** Settles when `work` does or after `deadlineMs`, whichever is first; swallows its failure. */
async function within(work: Promise<unknown>, deadlineMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, deadlineMs);
    timer.unref();
  });
  await Promise.race([work.catch(() => undefined), deadline]);
  clearTimeout(timer);
}

/**
 * Starts the OpenTelemetry SDK as the settings ask and registers it as the
 * process's global tracer and meter provider (with the W3C trace context
 * propagator and an AsyncLocalStorage context manager), which is what the
 * library's spans and metrics then go to: the library itself never starts
 * one. Spans go out in batches, metrics every `metricIntervalMs`.
 * @throws TelemetryPackagesMissing when a package the settings need is not installed.
 */
export async function startTelemetry(settings: TelemetrySettings): Promise<StartedTelemetry> {
  const loaded = await importPackages(settings);
  const api = loaded['@opentelemetry/api']!;
  const resource = resourceOf(loaded['@opentelemetry/resources']!);
  const stops: (() => Promise<void>)[] = [];
  if (settings.traces) {
    const { NodeTracerProvider, BatchSpanProcessor } = loaded['@opentelemetry/sdk-trace-node']!;
    const provider = new NodeTracerProvider({
      resource,
      spanProcessors: [
        new BatchSpanProcessor(new loaded[exporterPackage('trace', settings.traces)]!.OTLPTraceExporter()),
      ],
    });
    provider.register();
    stops.push(() => provider.shutdown());
  }
  if (settings.metrics) {
    const { MeterProvider, PeriodicExportingMetricReader } = loaded['@opentelemetry/sdk-metrics']!;
    const provider = new MeterProvider({
      resource,
      readers: [
        new PeriodicExportingMetricReader({
          exporter: new loaded[exporterPackage('metrics', settings.metrics)]!.OTLPMetricExporter(),
          exportIntervalMillis: settings.metricIntervalMs,
          exportTimeoutMillis: Math.min(settings.metricTimeoutMs, settings.metricIntervalMs),
        }),
      ],
    });
    api.metrics.setGlobalMeterProvider(provider);
    stops.push(() => provider.shutdown());
  }
  return {
    shutdown: (deadlineMs = TELEMETRY_FLUSH_DEADLINE_MS) =>
      within(Promise.all(stops.map((stop) => stop())), deadlineMs),
  };
}
