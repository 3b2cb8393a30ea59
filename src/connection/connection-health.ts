import type { ConnectionHealth } from '../model/connection-health.js';
import type { Integration } from '../model/define-integration.js';
import { connectionState, type StoredConnectionView } from './connection-state.js';
import { refreshTokenEnd } from './refresh-token-end.js';

/** How long before a refresh token ends keep-alive renews it, and a connection counts as `expiring`, by default. */
export const DEFAULT_KEEP_ALIVE_WINDOW_MS = 7 * 24 * 60 * 60_000;

/** A connection's health reads the whole stored record, lifecycle included, with or without its secrets. */
export type HealthView = StoredConnectionView;

/**
 * How a stored connection stands, in the one vocabulary (`ConnectionHealth`),
 * read from the store alone (no request). In order:
 * - a recorded `needs_reconnect` stays until the connection is stored anew
 *   (a reconnect writes a record without it, a refresh one that says healthy);
 * - a refresh token past its end, or an access token past its end that
 *   nothing can renew, is `needs_reconnect`;
 * - a recorded `rate_limited` or `unreachable` stays until the next check says otherwise;
 * - a refresh token (or, with none, the only token) that ends within
 *   `windowMs` is `expiring`;
 * - else `healthy`.
 */
export function assessHealth(
  connection: HealthView,
  integration: Integration | undefined,
  now: number,
  windowMs = DEFAULT_KEEP_ALIVE_WINDOW_MS,
): ConnectionHealth {
  const recorded = connection.health;
  if (recorded?.state === 'needs_reconnect') return recorded;
  const token = connectionState(connection, integration, now);
  const refreshable = token.refreshable !== false;
  const end = refreshable ? refreshTokenEnd(connection, integration) : undefined;
  if (end !== undefined && end <= now) {
    return { state: 'needs_reconnect', checkedAt: now, reason: 'the refresh token has expired' };
  }
  if (token.state === 'expired' && !refreshable) {
    return {
      state: 'needs_reconnect',
      checkedAt: now,
      reason: 'the token has expired and cannot be refreshed',
    };
  }
  if (recorded?.state === 'rate_limited' || recorded?.state === 'unreachable') return recorded;
  if (end !== undefined && end - now <= windowMs) {
    return {
      state: 'expiring',
      checkedAt: now,
      reason: `the refresh token ends ${new Date(end).toISOString()}`,
    };
  }
  const onlyToken = refreshable ? undefined : connection.expiresAt;
  if (onlyToken !== undefined && onlyToken - now <= windowMs) {
    return {
      state: 'expiring',
      checkedAt: now,
      reason: `the token ends ${new Date(onlyToken).toISOString()}`,
    };
  }
  return recorded?.state === 'healthy' ? recorded : { state: 'healthy', checkedAt: now };
}
