import { packageVersion } from '../disk/package-root.js';

/** The name of toolsteps' tracer and meter, under which its spans and metrics arrive at a collector. */
export const INSTRUMENTATION_NAME = 'toolsteps';

let version: string | undefined;

/** toolsteps' version, for the tracer and the meter: read once, when telemetry first asks. */
export function instrumentationVersion(): string {
  version ??= packageVersion();
  return version;
}
