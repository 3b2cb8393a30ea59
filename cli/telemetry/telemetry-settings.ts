/**
 * What the standard OpenTelemetry environment variables ask of a serving
 * command (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/),
 * read without loading anything: a process that sets none of them loads no
 * SDK. The exporters read their own variables (endpoints, headers, timeout,
 * compression) and the trace SDK its sampler (`OTEL_TRACES_SAMPLER`,
 * `OTEL_TRACES_SAMPLER_ARG`) and batch settings (`OTEL_BSP_*`); this decides
 * only whether to start, which exporter packages that takes, and what the
 * SDK packages do not read themselves.
 */

/** Any of these set (and not empty) asks for the SDK; `OTEL_SDK_DISABLED=true` overrides them all. */
const ASKING = [
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT',
  'OTEL_TRACES_EXPORTER',
  'OTEL_METRICS_EXPORTER',
  'OTEL_SERVICE_NAME',
  'OTEL_TRACES_SAMPLER',
] as const;

/** OTLP over HTTP, as JSON or protobuf; gRPC is not offered (its client is a dependency tree of its own). */
export type OtlpProtocol = 'http/json' | 'http/protobuf';

export interface TelemetrySettings {
  /** Where traces go: OTLP in this protocol, or nowhere. */
  traces: OtlpProtocol | undefined;
  metrics: OtlpProtocol | undefined;
  /** How often metrics are exported, and how long one export may take (`OTEL_METRIC_EXPORT_*`). */
  metricIntervalMs: number;
  metricTimeoutMs: number;
  /** Variables whose values this cannot honour, each with why: said once at start, never fatal. */
  ignored: string[];
}

const value = (env: NodeJS.ProcessEnv, name: string) => env[name]?.trim() || undefined;

/** A positive whole number of milliseconds from the variable, else the spec's default. */
function millis(env: NodeJS.ProcessEnv, name: string, fallback: number, ignored: string[]): number {
  const text = value(env, name);
  if (text === undefined) return fallback;
  const parsed = Number(text);
  if (Number.isInteger(parsed) && parsed > 0) return parsed;
  ignored.push(`${name} (not a positive whole number of milliseconds)`);
  return fallback;
}

/**
 * The protocol of one signal (`OTEL_EXPORTER_OTLP_<SIGNAL>_PROTOCOL`, then
 * `OTEL_EXPORTER_OTLP_PROTOCOL`, then the spec's default, protobuf), when
 * its exporter variable names `otlp` (the default) rather than `none`.
 */
function signal(env: NodeJS.ProcessEnv, which: 'TRACES' | 'METRICS', ignored: string[]) {
  const exporterName = `OTEL_${which}_EXPORTER`;
  const exporters = (value(env, exporterName) ?? 'otlp').split(',').map((name) => name.trim());
  const unknown = exporters.filter((name) => name !== 'otlp' && name !== 'none');
  // The console exporters would write into stdout, which carries `listen`'s events and MCP's protocol.
  if (unknown.length) ignored.push(`${exporterName}=${unknown.join(',')} (only otlp and none are offered)`);
  if (!exporters.includes('otlp')) return undefined;
  const protocolName = value(env, `OTEL_EXPORTER_OTLP_${which}_PROTOCOL`)
    ? `OTEL_EXPORTER_OTLP_${which}_PROTOCOL`
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = value(env, protocolName) ?? 'http/protobuf';
  if (protocol === 'http/json' || protocol === 'http/protobuf') return protocol;
  ignored.push(`${protocolName}=${protocol} (only http/protobuf and http/json are offered)`);
  return undefined;
}

/** What to start, or undefined when no variable asks for telemetry (or `OTEL_SDK_DISABLED` is true). */
export function telemetrySettings(env: NodeJS.ProcessEnv = process.env): TelemetrySettings | undefined {
  if (value(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return undefined;
  if (!ASKING.some((name) => value(env, name) !== undefined)) return undefined;
  const ignored: string[] = [];
  return {
    traces: signal(env, 'TRACES', ignored),
    metrics: signal(env, 'METRICS', ignored),
    metricIntervalMs: millis(env, 'OTEL_METRIC_EXPORT_INTERVAL', 60_000, ignored),
    metricTimeoutMs: millis(env, 'OTEL_METRIC_EXPORT_TIMEOUT', 30_000, ignored),
    ignored,
  };
}

/**
 * Every package a start may import, with the range this package is written
 * against: each an optional peer. The exporters are experimental packages
 * (0.x): the 0.2xx line is the one built for the 2.x SDK, which runs on Node 20.
 */
export const SDK_PACKAGES = {
  '@opentelemetry/api': '^1.9.0',
  '@opentelemetry/resources': '^2.0.0',
  '@opentelemetry/sdk-trace-node': '^2.0.0',
  '@opentelemetry/sdk-metrics': '^2.0.0',
  '@opentelemetry/exporter-trace-otlp-http': '>=0.200.0 <0.300.0',
  '@opentelemetry/exporter-trace-otlp-proto': '>=0.200.0 <0.300.0',
  '@opentelemetry/exporter-metrics-otlp-http': '>=0.200.0 <0.300.0',
  '@opentelemetry/exporter-metrics-otlp-proto': '>=0.200.0 <0.300.0',
} as const;

/** A package a start may import. */
export type SdkPackage = keyof typeof SDK_PACKAGES;

/** The OTLP exporter package of a signal: `-otlp-http` sends JSON, `-otlp-proto` protobuf. */
export function exporterPackage<Signal extends 'trace' | 'metrics'>(signal: Signal, protocol: OtlpProtocol) {
  const suffix = protocol === 'http/json' ? 'http' : 'proto';
  return `@opentelemetry/exporter-${signal}-otlp-${suffix}` as const;
}

/** The packages a start with these settings imports, each with its range. */
export function telemetryPackages(settings: TelemetrySettings): Partial<Record<SdkPackage, string>> {
  const names: SdkPackage[] = ['@opentelemetry/api', '@opentelemetry/resources'];
  if (settings.traces) names.push('@opentelemetry/sdk-trace-node', exporterPackage('trace', settings.traces));
  if (settings.metrics)
    names.push('@opentelemetry/sdk-metrics', exporterPackage('metrics', settings.metrics));
  return Object.fromEntries(names.map((name) => [name, SDK_PACKAGES[name]]));
}
