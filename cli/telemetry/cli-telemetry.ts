import { telemetrySettings } from './telemetry-settings.js';

/** Says something about telemetry on stderr, as a JSON line under `--json`; stdout is never touched. */
function note(json: boolean, message: string, fields: Record<string, unknown> = {}): void {
  if (json) process.stderr.write(`${JSON.stringify({ telemetry: { message, ...fields } })}\n`);
  else process.stderr.write(`telemetry: ${message}\n`);
}

/**
 * Starts the OpenTelemetry SDK for a serving command when the `OTEL_*`
 * variables ask for it, and returns how to stop it (undefined when nothing
 * started). Telemetry never stops a server from starting: missing packages
 * and values it cannot honour are said once, on stderr, and it runs without.
 */
export async function startCliTelemetry(
  json: boolean,
  env: NodeJS.ProcessEnv = process.env,
): Promise<(() => Promise<void>) | undefined> {
  const settings = telemetrySettings(env);
  if (!settings) return undefined;
  for (const ignored of settings.ignored) note(json, `ignoring ${ignored}`);
  if (!settings.traces && !settings.metrics) return undefined;
  const { startTelemetry, TelemetryPackagesMissing } = await import('./start-telemetry.js');
  try {
    const started = await startTelemetry(settings);
    // The library's seam loads the API now, so the servers made next see telemetry on from their first request.
    const { otelApi } = await import('../../src/telemetry/load-otel.js');
    await otelApi();
    return () => started.shutdown();
  } catch (error) {
    if (!(error instanceof TelemetryPackagesMissing)) throw error;
    note(json, error.message, { missing: Object.keys(error.missing) });
    return undefined;
  }
}
