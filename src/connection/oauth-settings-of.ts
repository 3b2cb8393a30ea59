import type { Integration, OAuthSettings } from '../model/define-integration.js';

/** The OAuth settings of an integration; an integration without them is a programming error. */
export function oauthOf(integration: Integration): OAuthSettings {
  const oauth = integration.connection.oauth;
  if (!oauth) throw new Error(`Integration "${integration.id}" does not use OAuth.`);
  return oauth;
}
