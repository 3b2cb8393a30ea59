import { type Clock, systemClock } from '../clock.js';
import { FaultInjector } from './fault-injector.js';
import { SandboxServer } from './sandbox-server.js';
import { TicketingEmulator } from './ticketing/ticketing-emulator.js';

export { FaultInjector, type FaultRule } from './fault-injector.js';
export { TICKETING_SANDBOX_CLIENTS, TicketingEmulator } from './ticketing/ticketing-emulator.js';

export interface SandboxOptions {
  port?: number;
  host?: string;
  clock?: Clock;
  ticketing?: { requestsPerMinute?: number; accessTokenTtlMs?: number };
}

export interface Sandbox {
  url: string;
  server: SandboxServer;
  faults: FaultInjector;
  ticketing: TicketingEmulator;
  /** The `baseUrl` a connection uses to reach an emulator instead of the provider. */
  baseUrl(integration: 'ticketing', account: string): string;
  close(): Promise<void>;
}

/** Starts every emulator on one loopback server. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const clock = options.clock ?? systemClock;
  const faults = new FaultInjector();
  const ticketing = new TicketingEmulator({ clock, ...options.ticketing });
  const server = new SandboxServer({
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    emulators: [ticketing],
    faults,
  });
  const url = await server.listen();
  return {
    url,
    server,
    faults,
    ticketing,
    baseUrl: (integration, account) => `${url}/${integration}/${account}`,
    close: () => server.close(),
  };
}
