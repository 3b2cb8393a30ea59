import { resolveBaseUrl } from '../connection/connection-fields.js';
import type { TokenRefresher } from '../connection/token-refresher.js';
import { AuthError, InputError, NotFoundError } from '../errors/index.js';
import type { BoundCredentials } from '../http/http-client.js';
import { type Connection, secretValues } from '../model/connection.js';
import type { Integration } from '../model/define-integration.js';
import type { AnyStep } from '../step/define-step.js';
import type { ConnectionStore } from '../store/connection-store.js';
import { scrubError } from './scrub-error.js';

/** A connection bound to one invocation: its base URL, its credentials, and every secret it has held. */
export interface BoundConnection {
  baseUrl: string;
  credentials: BoundCredentials;
  /**
   * Every secret value the connection has held during the invocation: a
   * token refreshed mid-step is redacted as well as the one it replaced.
   */
  secrets(): string[];
}

async function loadConnection(store: ConnectionStore, step: AnyStep, reference: string | Connection) {
  const connection = typeof reference === 'string' ? await store.get(reference) : reference;
  if (!connection) {
    // The store is the tenant's own: another tenant's id is missing here exactly as one nobody holds,
    // so the refusal (code, message, fields) cannot tell the two apart.
    throw new NotFoundError(
      `No connection with id "${reference as string}". Add one with: toolsteps connections add.`,
      { fields: [{ path: 'connection', message: 'unknown connection id' }], sent: false },
    );
  }
  if (connection.integration !== step.integration.id) {
    throw new InputError(
      `Step ${step.id} needs a ${step.integration.id} connection; "${connection.id}" is a ${connection.integration} connection.`,
      [{ path: 'connection', message: `expected a ${step.integration.id} connection` }],
    );
  }
  for (const secret of step.integration.connection.requiredSecrets) {
    if (!connection.secrets[secret]) {
      const what = secret === 'apiKey' ? 'API key' : 'access token';
      throw new AuthError(`Connection "${connection.id}" has no ${what}.`, {
        reauthorize: true,
        sent: false,
      });
    }
  }
  return connection;
}

/**
 * Stage 3: loads the connection, checks it belongs to the step's integration
 * and holds its secrets, resolves its base URL, and refreshes its token when
 * it is near expiry; the credentials it returns can refresh again on a 401.
 * @throws NotFoundError (no such connection in the tenant), InputError (another integration's connection),
 *   AuthError (no secret, refresh refused).
 */
export async function bindConnection(
  step: AnyStep,
  reference: string | Connection,
  deps: { store: ConnectionStore; refresher: TokenRefresher },
): Promise<BoundConnection> {
  const integration = step.integration as Integration;
  const loaded = await loadConnection(deps.store, step, reference);
  const baseUrl = resolveBaseUrl(integration, loaded);
  const held = new Set(secretValues(loaded));
  let connection = loaded;
  try {
    connection = await deps.refresher.fresh(integration, loaded);
  } catch (error) {
    // A token endpoint may quote the refresh token or client secret back at us.
    throw scrubError(error, [...held]);
  }
  for (const secret of secretValues(connection)) held.add(secret);
  const refresh = async () => {
    connection = await deps.refresher.fresh(integration, connection, connection.secrets.accessToken);
    for (const secret of secretValues(connection)) held.add(secret);
    return connection;
  };
  return {
    baseUrl,
    credentials: {
      current: () => connection,
      refresh: deps.refresher.canRefresh(integration, connection) ? refresh : undefined,
    },
    secrets: () => [...held],
  };
}
