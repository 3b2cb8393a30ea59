import { resolveBaseUrl } from '../src/connection/connection-fields.js';
import { authorizeViaLoopback, followAuthorizeRedirects } from '../src/connection/loopback-authorization.js';
import { InputError } from '../src/errors/input-error.js';
import { type Clock, systemClock } from '../src/model/clock.js';
import type { Connection } from '../src/model/connection.js';
import type { Integration } from '../src/model/define-integration.js';
import { definedOnly } from '../src/values/defined-only.js';
import { ANZ_DATA_SANDBOX_KEY } from './anz-data/anz-data-emulator.js';
import { CONTACT_DATA_SANDBOX_KEY } from './contact-data/contact-data-emulator.js';
import { GOVERNANCE_SANDBOX } from './governance/governance-seed.js';

/** The integrations the sandbox emulates, by the id their definitions carry. */
export const SANDBOX_INTEGRATIONS = [
  'ticketing',
  'deployments',
  'anz_data',
  'contact_data',
  'governance',
] as const;
/** An integration the sandbox emulates, and so one `sandboxConnections` can connect. */
export type SandboxIntegrationId = (typeof SANDBOX_INTEGRATIONS)[number];

/** The part of a sandbox this needs: where it listens. `startSandbox()`'s answer is one. */
export interface SandboxAddress {
  /** The URL of one emulator (and account), which a connection's base URL is set to. */
  baseUrl(mount: string, account?: string): string;
}

/** Which sandbox connections to make and how to name them. */
export interface SandboxConnectionsOptions {
  /** Where the integrations' definitions come from: `createRegistry()` of `toolsteps/steps`, or your own. */
  registry: {
    /** The integration's definition, which decides the connection's kind and fields. */
    integration(id: string): Integration | undefined;
  };
  /** Which to connect. Default: every one the sandbox emulates. */
  integrations?: readonly SandboxIntegrationId[];
  /** Connection ids are `<prefix><integration id>`. Default `sandbox-`. */
  idPrefix?: string;
  /** The clock token expiry is reckoned on: the sandbox's, when it runs on one of its own. */
  clock?: Clock;
  /** The fetch the OAuth code exchange uses. Default: the global one. */
  fetch?: typeof globalThis.fetch;
}

/**
 * One stored-ready connection per integration to a running sandbox, the way
 * a person would connect them: ticketing and deployments through the OAuth
 * code flow with PKCE and a loopback callback (the sandbox's sign-in page
 * approves at once, so no browser is needed), the data integrations and
 * governance with the sandbox's published API keys. Put them in any store.
 *
 * @throws InputError when the registry lacks an integration that was asked for.
 */
export async function sandboxConnections(
  sandbox: SandboxAddress,
  options: SandboxConnectionsOptions,
): Promise<Partial<Record<SandboxIntegrationId, Connection>>> {
  const connections: Partial<Record<SandboxIntegrationId, Connection>> = {};
  for (const id of options.integrations ?? SANDBOX_INTEGRATIONS) {
    const integration = options.registry.integration(id);
    if (!integration) {
      throw new InputError(`The registry has no "${id}" integration to connect to the sandbox.`, [
        { path: 'integrations', message: `unknown integration ${id}` },
      ]);
    }
    connections[id] = await connectOne(sandbox, integration, id, options);
  }
  return connections;
}

/** What a connection to one emulator holds besides its secrets. */
function sandboxFields(sandbox: SandboxAddress, id: SandboxIntegrationId): Record<string, string> {
  switch (id) {
    case 'ticketing':
      return { subdomain: 'acme', baseUrl: sandbox.baseUrl('ticketing', 'acme'), clientId: 'toolsteps-cli' };
    case 'deployments':
      return { baseUrl: sandbox.baseUrl('deployments'), teamId: 'team_acme', clientId: 'toolsteps-cli' };
    case 'anz_data':
      return { baseUrl: sandbox.baseUrl('anz-data') };
    case 'contact_data':
      return { baseUrl: sandbox.baseUrl('contact-data') };
    case 'governance':
      return {
        region: GOVERNANCE_SANDBOX.region,
        baseUrl: sandbox.baseUrl('governance', GOVERNANCE_SANDBOX.region),
      };
  }
}

const API_KEYS: Record<Exclude<SandboxIntegrationId, 'ticketing' | 'deployments'>, string> = {
  anz_data: ANZ_DATA_SANDBOX_KEY,
  contact_data: CONTACT_DATA_SANDBOX_KEY,
  governance: GOVERNANCE_SANDBOX.adminKey,
};

async function connectOne(
  sandbox: SandboxAddress,
  integration: Integration,
  id: SandboxIntegrationId,
  options: SandboxConnectionsOptions,
): Promise<Connection> {
  const clock = options.clock ?? systemClock;
  const fields = sandboxFields(sandbox, id);
  const base = {
    id: `${options.idPrefix ?? 'sandbox-'}${id}`,
    integration: integration.id,
    label: `${integration.title} (sandbox)`,
    kind: integration.connection.kind,
    fields,
    createdAt: clock.now(),
    updatedAt: clock.now(),
  };
  if (id !== 'ticketing' && id !== 'deployments') return { ...base, secrets: { apiKey: API_KEYS[id] } };
  const tokens = await authorizeViaLoopback({
    integration,
    baseUrl: resolveBaseUrl(integration, { fields }),
    clientId: 'toolsteps-cli',
    fetch: options.fetch ?? globalThis.fetch,
    dispatcher: undefined,
    clock,
    openAuthorizeUrl: (url) => followAuthorizeRedirects(url),
  });
  return {
    ...base,
    secrets: { accessToken: tokens.accessToken, ...definedOnly({ refreshToken: tokens.refreshToken }) },
    ...definedOnly({ expiresAt: tokens.expiresAt }),
  };
}
