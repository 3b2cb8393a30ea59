import { loadSandbox } from './library-sandbox.js';
import { SANDBOX_DEPLOYMENTS_TEAM, SANDBOX_TICKETING_ACCOUNT } from './sandbox-connect-settings.js';

/**
 * What `serve --sandbox` (or `--sandbox-url`) tells the person trying a
 * page against the sandbox: where sign-ins go, and the keys the data
 * integrations' key forms accept (the sandbox's own, public, test keys),
 * since nothing else on the page says them.
 */
export async function sandboxNotice(url: string): Promise<string> {
  const { ANZ_DATA_SANDBOX_KEY, CONTACT_DATA_SANDBOX_KEY } = await loadSandbox();
  return [
    `Sandbox at ${url}: every sign-in and key goes to it, none to a real provider.`,
    `  ticketing:    "Connect new account" signs in by redirect to the sandbox's account ${SANDBOX_TICKETING_ACCOUNT}`,
    `  deployments:  "Connect new account" signs in in a pop-up, team ${SANDBOX_DEPLOYMENTS_TEAM}`,
    `  anz_data:     API key ${ANZ_DATA_SANDBOX_KEY}`,
    `  contact_data: API key ${CONTACT_DATA_SANDBOX_KEY}`,
    '',
  ].join('\n');
}
