import type * as OtelApiModule from '@opentelemetry/api';
import { missingPeer } from '../peers/optional-peer.js';

/** `@opentelemetry/api` as a module, named by a type-only import: no published declaration names it. */
export type OtelApi = typeof OtelApiModule;

/** The semver range of `@opentelemetry/api` this package is written against (an optional peer). */
export const OTEL_API_RANGE = '^1.9.0';

/**
 * Where every copy of `@opentelemetry/api` 1.x keeps what an SDK registered
 * (its `registerGlobal`): reading it needs no import, so a process without
 * telemetry loads nothing and pays one property lookup per check.
 */
const OTEL_GLOBAL = Symbol.for('opentelemetry.js.api.1');

interface OtelGlobals {
  trace?: unknown;
  metrics?: unknown;
  propagation?: unknown;
}

function globals(): OtelGlobals | undefined {
  return (globalThis as { [OTEL_GLOBAL]?: OtelGlobals })[OTEL_GLOBAL];
}

/** True when an SDK registered a tracer provider or a meter provider with the OpenTelemetry API. */
export function telemetryRegistered(): boolean {
  const registered = globals();
  return registered !== undefined && (registered.trace !== undefined || registered.metrics !== undefined);
}

/** True when a tracer provider is registered: spans are worth starting. */
export function tracingRegistered(): boolean {
  return globals()?.trace !== undefined;
}

/** True when a meter provider is registered: instruments are worth creating. */
export function metricsRegistered(): boolean {
  return globals()?.metrics !== undefined;
}

/** True when a propagator is registered; otherwise trace-context.ts writes and reads W3C headers itself. */
export function propagatorRegistered(): boolean {
  return globals()?.propagation !== undefined;
}

let loaded: OtelApi | undefined;
let loading: Promise<OtelApi | undefined> | undefined;

/**
 * The API module when an SDK is registered, loaded on the first such call;
 * undefined otherwise, without importing anything. A registered SDK with the
 * peer missing (a copy of the API we cannot resolve) is telemetry off too:
 * the embedder did not ask toolsteps for it.
 */
export function otelApi(): Promise<OtelApi | undefined> {
  if (!telemetryRegistered()) return Promise.resolve(undefined);
  if (loaded) return Promise.resolve(loaded);
  loading ??= import('@opentelemetry/api').then(
    (module) => {
      loaded = module;
      return module;
    },
    () => undefined,
  );
  return loading;
}

/**
 * The API module when it is already loaded and an SDK is still registered,
 * for code that cannot wait (a header written while a request is built):
 * the spans it would join were started through `otelApi()`, which loaded it.
 */
export function otelApiIfLoaded(): OtelApi | undefined {
  return loaded !== undefined && telemetryRegistered() ? loaded : undefined;
}

/**
 * The API module for a feature a user asked telemetry of explicitly (the
 * CLI's `OTEL_*` variables): a missing peer is an error that says how to
 * install it, not a silent no-op.
 */
export async function requireOtelApi(feature: string): Promise<OtelApi> {
  const module = await import('@opentelemetry/api').catch(
    missingPeer('@opentelemetry/api', OTEL_API_RANGE, feature),
  );
  loaded ??= module;
  return module;
}
