import type { Connection } from '../model/connection.js';
import type { Integration } from '../model/define-integration.js';

export interface ConnectionState {
  /** `ok` (a key, a long-lived token, or time left), `expiring` (within 5 min), `expired`. */
  state: 'ok' | 'expiring' | 'expired';
  /**
   * Whether the runtime can renew the access token by itself: a refresh
   * token, a client id, a provider that refreshes. `null`: not known, the
   * connection was read without its secrets (Redis, no encryption key).
   */
  refreshable: boolean | null;
  expiresAt: string | null;
  /** What to do about it, when anything. */
  advice: string | null;
}

/** The runtime refreshes this long before expiry (src/connection/token-refresher.ts), so it is "expiring". */
const EXPIRING_MS = 5 * 60_000;

/** A stored connection, or its public part alone when the secrets could not be read (no encryption key). */
export type StoredConnectionView = Omit<Connection, 'secrets'> & { secrets?: Connection['secrets'] };

/** How a stored connection stands, read from the store alone (no request): for `connections list` and `doctor`. */
export function connectionState(
  connection: StoredConnectionView,
  integration: Integration | undefined,
  now = Date.now(),
): ConnectionState {
  const canRefresh = Boolean(integration?.connection.oauth?.refreshes && connection.fields.clientId);
  // Whether there is a refresh token is sealed with the secrets: unknown without them, unless nothing could refresh anyway.
  const refreshable =
    connection.secrets === undefined
      ? canRefresh
        ? null
        : false
      : canRefresh && Boolean(connection.secrets.refreshToken);
  const expiresAt = connection.expiresAt === undefined ? null : new Date(connection.expiresAt).toISOString();
  if (connection.expiresAt === undefined) return { state: 'ok', refreshable, expiresAt, advice: null };
  const left = connection.expiresAt - now;
  const state = left <= 0 ? 'expired' : left <= EXPIRING_MS ? 'expiring' : 'ok';
  const advice =
    state === 'ok' || refreshable !== false
      ? null
      : `sign in again: toolsteps connect ${connection.integration} --id ${connection.id} --force`;
  return { state, refreshable, expiresAt, advice };
}
