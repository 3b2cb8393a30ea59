import { describe, expect, it } from 'vitest';
import { TelemetryPackagesMissing } from '../../../cli/telemetry/start-telemetry.js';
import { telemetryPackages, telemetrySettings } from '../../../cli/telemetry/telemetry-settings.js';

describe('what the OTEL_* variables ask of a serving command', () => {
  it('asks for nothing when none of them is set, or the SDK is disabled', () => {
    expect(telemetrySettings({})).toBeUndefined();
    expect(telemetrySettings({ OTEL_RESOURCE_ATTRIBUTES: 'team=a', PATH: '/bin' })).toBeUndefined();
    const disabled = { OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
    expect(telemetrySettings(disabled)).toBeUndefined();
  });

  it('an endpoint, an exporter, a service name or a sampler asks for traces and metrics over OTLP/HTTP protobuf', () => {
    for (const name of [
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
      'OTEL_TRACES_EXPORTER',
      'OTEL_SERVICE_NAME',
      'OTEL_TRACES_SAMPLER',
    ]) {
      const value = name.endsWith('EXPORTER') ? 'otlp' : name.endsWith('SAMPLER') ? 'always_on' : 'x';
      expect(telemetrySettings({ [name]: value }), name).toEqual({
        traces: 'http/protobuf',
        metrics: 'http/protobuf',
        metricIntervalMs: 60_000,
        metricTimeoutMs: 30_000,
        ignored: [],
      });
    }
  });

  it("reads each signal's protocol and exporter, and says what it cannot honour instead of failing", () => {
    const settings = telemetrySettings({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'grpc',
      OTEL_TRACES_EXPORTER: 'otlp,console',
      OTEL_METRIC_EXPORT_INTERVAL: 'soon',
    });
    expect(settings).toMatchObject({ traces: 'http/json', metrics: undefined, metricIntervalMs: 60_000 });
    expect(settings?.ignored).toEqual([
      'OTEL_TRACES_EXPORTER=console (only otlp and none are offered)',
      'OTEL_EXPORTER_OTLP_METRICS_PROTOCOL=grpc (only http/protobuf and http/json are offered)',
      'OTEL_METRIC_EXPORT_INTERVAL (not a positive whole number of milliseconds)',
    ]);
    expect(telemetrySettings({ OTEL_METRICS_EXPORTER: 'none' })).toMatchObject({
      traces: 'http/protobuf',
      metrics: undefined,
    });
  });

  it('names the packages a start needs, and the message for missing ones says how to install them', () => {
    const settings = telemetrySettings({
      OTEL_SERVICE_NAME: 'x',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
    });
    const packages = telemetryPackages(settings!);
    expect(Object.keys(packages).sort()).toEqual([
      '@opentelemetry/api',
      '@opentelemetry/exporter-metrics-otlp-proto',
      '@opentelemetry/exporter-trace-otlp-http',
      '@opentelemetry/resources',
      '@opentelemetry/sdk-metrics',
      '@opentelemetry/sdk-trace-node',
    ]);
    const missing = new TelemetryPackagesMissing({ '@opentelemetry/sdk-metrics': '^2.0.0' });
    expect(missing.message).toContain('npm install @opentelemetry/sdk-metrics@"^2.0.0"');
    expect(missing.message).toContain('running without it');
  });
});
