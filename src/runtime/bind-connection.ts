import type { TokenRefresher } from '../connection/token-refresher.js';
import { AuthError, InputError, NotFoundError } from '../errors/index.js';
import type { BoundCredentials } from '../http/http-client.js';
import { type Connection, secretValues } from '../model/connection.js';
import type { Integration } from '../model/define-integration.js';
import type { AnyStep } from '../step/define-step.js';
import type { ConnectionStore } from '../store/connection-store.js';
import type { PreparedConnection, PreparedConnections } from './prepared-connections.js';
import { scrubError } from './scrub-error.js';

/** A connection bound to one invocation: what invocations on it share, its credentials, and every secret it has held. */
export interface BoundConnection {
  /** Its base URL, rate gate and transport stages, prepared once per version of the record. */
  prepared: PreparedConnection;
  credentials: BoundCredentials;
  /**
   * Every secret value the connection has held during the invocation: a
   * token refreshed mid-step is redacted as well as the one it replaced.
   * The same array until a refresh adds to it; not to be changed.
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
 * and holds its secrets, finds what is prepared for it (base URL, rate gate,
 * transport; prepared again when the record changed), and refreshes its token when
 * it is near expiry; the credentials it returns can refresh again on a 401.
 * @throws NotFoundError (no such connection in the tenant), InputError (another integration's connection),
 *   AuthError (no secret, refresh refused).
 */
export async function bindConnection(
  step: AnyStep,
  reference: string | Connection,
  deps: { store: ConnectionStore; refresher: TokenRefresher; prepared: PreparedConnections },
): Promise<BoundConnection> {
  const integration = step.integration as Integration;
  const loaded = await loadConnection(deps.store, step, reference);
  // Kept as one array, made anew only when a refresh adds to it: every attempt reads it.
  let held = secretValues(loaded);
  let connection = loaded;
  // Most calls find the token fresh: asked first, so they do not wait a turn for the refresher.
  if (deps.refresher.needsRefresh(loaded)) {
    try {
      connection = await deps.refresher.fresh(integration, loaded);
    } catch (error) {
      // A token endpoint may quote the refresh token or client secret back at us.
      throw scrubError(error, held);
    }
    held = withSecretsOf(held, connection);
  }
  // From the record as refreshed: the next call loads that version.
  const prepared = deps.prepared.for(integration, connection);
  const refresh = async () => {
    connection = await deps.refresher.fresh(integration, connection, connection.secrets.accessToken);
    held = withSecretsOf(held, connection);
    return connection;
  };
  return {
    prepared,
    credentials: {
      current: () => connection,
      refresh: deps.refresher.canRefresh(integration, connection) ? refresh : undefined,
    },
    secrets: () => held,
  };
}

/** `held` with the secrets of `connection` it lacks added (a new array when any is). */
function withSecretsOf(held: string[], connection: Connection): string[] {
  const added = secretValues(connection).filter((secret) => !held.includes(secret));
  return added.length === 0 ? held : [...held, ...added];
}
