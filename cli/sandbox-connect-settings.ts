import type { Sandbox } from '../sandbox/index.js';
import type { ConnectSetting } from '../src/builder/builder-options.js';
import { InputError } from '../src/errors/input-error.js';

/** The sandbox's confidential OAuth client (TICKETING_SANDBOX_CLIENTS, DEPLOYMENTS_SANDBOX_CLIENTS): the server signs in with it. */
const SERVER_CLIENT = { clientId: 'toolsteps-server', clientSecret: 'sandbox-client-secret' };

/** The ticketing account the sandbox seeds, and its deployments team. */
export const SANDBOX_TICKETING_ACCOUNT = 'acme';
export const SANDBOX_DEPLOYMENTS_TEAM = 'team_acme';

/**
 * How the builder connects each integration against the sandbox, as the
 * seed's flows do it: ticketing by redirect and allow screen, deployments in
 * a pop-up, the two data integrations with an API key form. Each connection
 * is pointed at the sandbox by its preset base URL.
 */
export function sandboxConnectSettings(sandbox: Pick<Sandbox, 'baseUrl'>): Record<string, ConnectSetting> {
  return {
    ticketing: {
      flow: 'redirect',
      ...SERVER_CLIENT,
      fields: {
        subdomain: SANDBOX_TICKETING_ACCOUNT,
        baseUrl: sandbox.baseUrl('ticketing', SANDBOX_TICKETING_ACCOUNT),
      },
    },
    deployments: {
      flow: 'popup',
      ...SERVER_CLIENT,
      fields: { teamId: SANDBOX_DEPLOYMENTS_TEAM, baseUrl: sandbox.baseUrl('deployments') },
    },
    anz_data: { flow: 'api_key', fields: { baseUrl: sandbox.baseUrl('anz-data') } },
    contact_data: { flow: 'api_key', fields: { baseUrl: sandbox.baseUrl('contact-data') } },
  };
}

/**
 * A sandbox started apart (`toolsteps sandbox`, or one shared by a team), by
 * its URL: every emulator is a path under it, as the sandbox lays them out.
 */
export function sandboxAt(url: string): Pick<Sandbox, 'baseUrl' | 'url'> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    parsed = new URL('invalid:');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new InputError(`--sandbox-url expects the sandbox's http(s) URL, got "${url}".`, [
      { path: 'sandbox-url', message: 'an http(s) URL' },
    ]);
  }
  const root = parsed.href.replace(/\/+$/, '');
  return { url: root, baseUrl: (mount, account) => `${root}/${mount}${account ? `/${account}` : ''}` };
}
