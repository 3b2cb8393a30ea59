import type { ConnectSetting } from '../src/builder/builder-options.js';
import type { Registry } from '../src/catalog/registry.js';
import { InputError } from '../src/errors/input-error.js';

/** The integrations whose sign-in opens in a pop-up window, as the seed has it; every other OAuth one redirects. */
const POPUP_SIGN_IN: ReadonlySet<string> = new Set(['deployments']);

/** Where the client secret of an integration's OAuth client is read from: never a flag, never a file we write. */
export const clientSecretEnv = (integration: string) => `TOOLSTEPS_OAUTH_SECRET_${integration.toUpperCase()}`;

/**
 * How the builder connects real accounts: an API key form for every API key
 * integration, and, for each `--oauth-client <integration>=<client id>`,
 * that OAuth client (its secret from the environment, when it has one).
 */
export function realConnectSettings(
  registry: Registry,
  oauthClients: readonly string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): Record<string, ConnectSetting> {
  const settings: Record<string, ConnectSetting> = {};
  for (const integration of registry.listIntegrations()) {
    if (integration.connection.kind === 'api_key') settings[integration.id] = { flow: 'api_key' };
  }
  for (const pair of oauthClients) {
    const [id = '', clientId = ''] = pair.split('=', 2);
    if (!registry.integration(id)?.connection.oauth || !clientId) {
      throw new InputError(`--oauth-client expects <oauth integration>=<client id>, got "${pair}".`, [
        { path: 'oauth-client', message: 'an OAuth integration and a client id' },
      ]);
    }
    settings[id] = {
      flow: POPUP_SIGN_IN.has(id) ? 'popup' : 'redirect',
      clientId,
      clientSecret: env[clientSecretEnv(id)] || undefined,
    };
  }
  return settings;
}
