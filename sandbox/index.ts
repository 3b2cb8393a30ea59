import { type Clock, systemClock } from '../src/clock.js';
import { definedOnly } from '../src/defined-only.js';
import { AnzDataEmulator, type AnzDataEmulatorOptions } from './anz-data/anz-data-emulator.js';
import {
  ContactDataEmulator,
  type ContactDataEmulatorOptions,
} from './contact-data/contact-data-emulator.js';
import { DeploymentsEmulator, type DeploymentsEmulatorOptions } from './deployments/deployments-emulator.js';
import type { Emulator } from './emulator.js';
import { FaultInjector } from './fault-injector.js';
import { GovernanceEmulator, type GovernanceEmulatorOptions } from './governance/governance-emulator.js';
import { SandboxServer } from './sandbox-server.js';
import { TicketingEmulator, type TicketingEmulatorOptions } from './ticketing/ticketing-emulator.js';

export { ANZ_DATA_SANDBOX_KEY, AnzDataEmulator } from './anz-data/anz-data-emulator.js';
export { CONTACT_DATA_SANDBOX_KEY, ContactDataEmulator } from './contact-data/contact-data-emulator.js';
export { DEPLOYMENTS_SANDBOX_CLIENTS, DeploymentsEmulator } from './deployments/deployments-emulator.js';
export type { Emulator } from './emulator.js';
export { FaultInjector, type FaultRule } from './fault-injector.js';
export { GovernanceEmulator } from './governance/governance-emulator.js';
export { GOVERNANCE_SANDBOX } from './governance/governance-seed.js';
export { TICKETING_SANDBOX_CLIENTS, TicketingEmulator } from './ticketing/ticketing-emulator.js';

export interface SandboxOptions {
  port?: number;
  host?: string;
  clock?: Clock;
  /** Requests the server remembers for assertions (default 10,000; 0 keeps none). */
  requestLogLimit?: number;
  ticketing?: Omit<TicketingEmulatorOptions, 'clock'>;
  governance?: GovernanceEmulatorOptions;
  anzData?: Omit<AnzDataEmulatorOptions, 'clock'>;
  contactData?: Omit<ContactDataEmulatorOptions, 'clock'>;
  deployments?: Omit<DeploymentsEmulatorOptions, 'clock'>;
}

/** Every emulator, by the name tests and stories use. Add new emulators here and in `emulatorsOf`. */
export interface SandboxEmulators {
  ticketing: TicketingEmulator;
  governance: GovernanceEmulator;
  anzData: AnzDataEmulator;
  contactData: ContactDataEmulator;
  deployments: DeploymentsEmulator;
}

function createEmulators(clock: Clock, options: SandboxOptions): SandboxEmulators {
  return {
    ticketing: new TicketingEmulator({ clock, ...options.ticketing }),
    governance: new GovernanceEmulator(options.governance),
    anzData: new AnzDataEmulator({ clock, ...options.anzData }),
    contactData: new ContactDataEmulator({ clock, ...options.contactData }),
    deployments: new DeploymentsEmulator({ clock, ...options.deployments }),
  };
}

export interface Sandbox extends SandboxEmulators {
  url: string;
  server: SandboxServer;
  faults: FaultInjector;
  /**
   * The `baseUrl` a connection uses to reach an emulator instead of the
   * provider: `<url>/<mount>`, plus `/<account>` for providers whose host
   * names the account (ticketing's subdomain).
   */
  baseUrl(mount: string, account?: string): string;
  close(): Promise<void>;
}

/** Starts every emulator on one loopback server. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const clock = options.clock ?? systemClock;
  const faults = new FaultInjector();
  const emulators = createEmulators(clock, options);
  const server = new SandboxServer({
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    emulators: Object.values(emulators) as Emulator[],
    faults,
    ...definedOnly({ requestLogLimit: options.requestLogLimit }),
  });
  const url = await server.listen();
  return {
    ...emulators,
    url,
    server,
    faults,
    baseUrl: (mount, account) => `${url}/${mount}${account ? `/${account}` : ''}`,
    close: () => server.close(),
  };
}
