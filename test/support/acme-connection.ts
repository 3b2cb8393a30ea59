import type { Connection } from '../../src/model/connection.js';

/** A ticketing connection to the acme help desk as a store holds it: an access token, and nothing to refresh with. */
export function acmeConnection(id: string, accessToken = `token-of-${id}`): Connection {
  return {
    id,
    integration: 'ticketing',
    kind: 'oauth2',
    fields: { subdomain: 'acme' },
    secrets: { accessToken },
    createdAt: 1,
    updatedAt: 1,
  };
}
