/**
 * `toolsteps/sandbox`: emulators of every provider the catalogue reaches, in
 * one local HTTP server, so steps, triggers and OAuth flows run offline in
 * tests and demos, with switches for the faults real providers have.
 *
 * @module toolsteps/sandbox
 */
import { type Clock, systemClock } from '../src/model/clock.js';
import { definedOnly } from '../src/values/defined-only.js';
import { AnzDataEmulator, type AnzDataEmulatorOptions } from './anz-data/anz-data-emulator.js';
import {
  ContactDataEmulator,
  type ContactDataEmulatorOptions,
} from './contact-data/contact-data-emulator.js';
import { DeploymentsEmulator, type DeploymentsEmulatorOptions } from './deployments/deployments-emulator.js';
import type { Emulator } from './emulator.js';
import { FaultInjector } from './fault-injector.js';
import { GovernanceEmulator, type GovernanceEmulatorOptions } from './governance/governance-emulator.js';
import {
  resolveAssumptions,
  type SandboxAssumptions,
  type SandboxAssumptionsInput,
} from './sandbox-assumptions.js';
import { SandboxServer } from './sandbox-server.js';
import { TicketingEmulator, type TicketingEmulatorOptions } from './ticketing/ticketing-emulator.js';
import { WebhookDispatcher, type WebhookDispatcherOptions } from './webhooks/webhook-dispatcher.js';
import { WebhookFaults } from './webhooks/webhook-faults.js';

export { AdvancingClock, ScaledClock, type ScaledClockSettings } from '../src/model/clock.js';
export { ANZ_DATA_SANDBOX_KEY, AnzDataEmulator } from './anz-data/anz-data-emulator.js';
export { CONTACT_DATA_SANDBOX_KEY, ContactDataEmulator } from './contact-data/contact-data-emulator.js';
export { CONTROL_HEADER } from './control-endpoints.js';
export { DEPLOYMENTS_SANDBOX_CLIENTS, DeploymentsEmulator } from './deployments/deployments-emulator.js';
export type { Emulator } from './emulator.js';
export { FaultInjector, type FaultRule } from './fault-injector.js';
export { GovernanceEmulator } from './governance/governance-emulator.js';
export { GOVERNANCE_SANDBOX } from './governance/governance-seed.js';
export {
  assumptionsFromFlags,
  resolveAssumptions,
  SandboxAssumptions,
  type SandboxAssumptionsInput,
} from './sandbox-assumptions.js';
export {
  SANDBOX_INTEGRATIONS,
  type SandboxAddress,
  type SandboxConnectionsOptions,
  type SandboxIntegrationId,
  sandboxConnections,
} from './sandbox-connections.js';
export { sandboxTwins } from './sandbox-twins.js';
export { TICKET_EVENT_TYPES } from './ticketing/ticket-events.js';
export { TICKETING_SANDBOX_CLIENTS, TicketingEmulator } from './ticketing/ticketing-emulator.js';
export {
  signatureTimestamp,
  TEST_SIGNING_SECRET,
  ticketingSignature,
} from './ticketing/ticketing-webhook-sender.js';
export type { TwinControl } from './twin-control.js';
export { TWIN_SEED_SCHEMAS } from './twin-seed-schemas.js';
export type { Delivery, DeliveryAttempt } from './webhooks/webhook-dispatcher.js';
export { WebhookDispatcher } from './webhooks/webhook-dispatcher.js';
export { type WebhookFaultRule, WebhookFaults } from './webhooks/webhook-faults.js';

/** How to start the sandbox; every field is optional, so `startSandbox()` alone serves every emulator on a free port. */
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
  /** Retry policy of outgoing webhook deliveries. */
  webhooks?: Pick<WebhookDispatcherOptions, 'maxAttempts' | 'firstRetryMs' | 'timeoutMs'>;
  /**
   * What the spec and the provider facts leave open and the emulators
   * invent, by integration id (docs/sandbox.md, "Sandbox assumptions"): change one
   * when your account behaves differently. Checked before anything starts.
   */
  assume?: SandboxAssumptionsInput;
}

/** Every emulator, by the name tests and stories use. Add new emulators here and in `emulatorsOf`. */
export interface SandboxEmulators {
  ticketing: TicketingEmulator;
  governance: GovernanceEmulator;
  anzData: AnzDataEmulator;
  contactData: ContactDataEmulator;
  deployments: DeploymentsEmulator;
}

function createEmulators(
  clock: Clock,
  options: SandboxOptions,
  webhooks: WebhookDispatcher,
  assumed: SandboxAssumptions,
): SandboxEmulators {
  return {
    ticketing: new TicketingEmulator({
      clock,
      webhooks,
      assumptions: assumed.ticketing,
      ...options.ticketing,
    }),
    governance: new GovernanceEmulator({ assumptions: assumed.governance, ...options.governance }),
    anzData: new AnzDataEmulator({ clock, assumptions: assumed.anz_data, ...options.anzData }),
    contactData: new ContactDataEmulator({
      clock,
      assumptions: assumed.contact_data,
      ...options.contactData,
    }),
    deployments: new DeploymentsEmulator({
      clock,
      webhooks,
      assumptions: assumed.deployments,
      ...options.deployments,
    }),
  };
}

export interface Sandbox extends SandboxEmulators {
  url: string;
  server: SandboxServer;
  faults: FaultInjector;
  /** Outgoing webhook deliveries: `deliveries` to assert on, `settle()` to send what is due and wait. */
  webhooks: WebhookDispatcher;
  /** Switches for duplicate, delayed and wrongly signed deliveries. */
  webhookFaults: WebhookFaults;
  /**
   * The `baseUrl` a connection uses to reach an emulator instead of the
   * provider: `<url>/<mount>`, plus `/<account>` for providers whose host
   * names the account (ticketing's subdomain).
   */
  baseUrl(mount: string, account?: string): string;
  /** The assumptions in force: the defaults with `assume` applied. */
  assumptions: SandboxAssumptions;
  /** Stops the webhook sender and the server; await it in a test's teardown so no port or timer outlives the test. */
  close(): Promise<void>;
}

/** Starts every emulator on one loopback server. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const assumptions = resolveAssumptions(options.assume);
  const clock = options.clock ?? systemClock;
  const faults = new FaultInjector();
  const webhookFaults = new WebhookFaults();
  const webhooks = new WebhookDispatcher({ clock, faults: webhookFaults, ...options.webhooks });
  const emulators = createEmulators(clock, options, webhooks, assumptions);
  const server = new SandboxServer({
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    emulators: Object.values(emulators) as Emulator[],
    faults,
    webhooks,
    webhookFaults,
    clock,
    ...definedOnly({ requestLogLimit: options.requestLogLimit }),
  });
  const url = await server.listen();
  webhooks.start();
  return {
    ...emulators,
    url,
    server,
    faults,
    webhooks,
    webhookFaults,
    assumptions,
    baseUrl: (mount, account) => `${url}/${mount}${account ? `/${account}` : ''}`,
    close: async () => {
      await webhooks.stop();
      await server.close();
    },
  };
}
