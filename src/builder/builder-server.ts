import type { Server, ServerResponse } from 'node:http';
import { systemClock } from '../model/clock.js';
import { HostOriginGuard } from '../server/host-origin-guard.js';
import { otelApi } from '../telemetry/index.js';
import { builderAppServer } from './builder-app.js';
import { type BuilderServerOptions, checkServerOptions } from './builder-options.js';
import type { BuilderServices } from './builder-services.js';
import { OAuthFlows } from './oauth-flows.js';
import { TenantContexts } from './tenant-contexts.js';
import { tenantIntake } from './tenant-intake.js';
import { TriggerEventHub } from './trigger-event-hub.js';

export interface RunningBuilderServer {
  /** Where it listens, e.g. `http://127.0.0.1:4020`. */
  url: string;
  /** What providers and browsers are told to reach (`publicUrl`, else `url`). */
  publicUrl: string;
  server: Server;
  hub: TriggerEventHub;
  close(): Promise<void>;
}

/**
 * Starts the builder API (and the tenants' webhook intake under
 * `/hooks/<tenant>/`, and, with `staticRoot`, a page at `/`) on
 * 127.0.0.1 unless told otherwise.
 */
export async function startBuilderServer(options: BuilderServerOptions): Promise<RunningBuilderServer> {
  const host = options.host ?? '127.0.0.1';
  checkServerOptions(options, host);
  const clock = options.clock ?? systemClock;
  const streams = new Set<ServerResponse>();
  let publicUrl = '';
  let origins: HostOriginGuard | undefined;
  const hub = new TriggerEventHub(options.maxEventStreams);
  const services: BuilderServices = {
    options,
    contexts: new TenantContexts(options),
    flows: new OAuthFlows(() => clock.now(), options.signIns),
    hub,
    publicUrl: () => publicUrl,
    origins: () => origins!,
    now: () => clock.now(),
    trackStream: (response) => {
      streams.add(response);
      response.once('close', () => streams.delete(response));
    },
  };
  // Loads the OpenTelemetry API when an SDK is registered, so the server traces its requests from the first.
  await otelApi();
  const app = builderAppServer(services, tenantIntake(options, hub));
  const url = await app.listen(options.port ?? 0, host);
  publicUrl = (options.publicUrl ?? url).replace(/\/+$/, '');
  // The page served here calls the API from the server's own origin, so that origin is allowed too.
  const own = options.staticRoot ? [new URL(publicUrl).origin, url] : [];
  origins = new HostOriginGuard({
    boundHost: host,
    allowedOrigins: [...(options.allowedOrigins ?? []), ...own],
    loopbackOrigins: false,
  });
  const close = async () => {
    for (const response of streams) response.end();
    await app.close();
  };
  return { url, publicUrl, server: app.server, hub, close };
}
