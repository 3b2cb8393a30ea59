import type { Connection } from '../model/connection.js';
import type { Integration } from '../model/define-integration.js';

/**
 * When a connection's refresh token ends: what the provider said
 * (`refreshExpiresAt`), else, for a provider whose refresh tokens have a
 * known default life (T: 30 days), that long after the last save, which is
 * when the token was issued. A connection saved before the end was kept is
 * then kept alive too. Undefined when nothing says it ends.
 */
export function refreshTokenEnd(
  connection: Pick<Connection, 'refreshExpiresAt' | 'updatedAt'>,
  integration: Integration | undefined,
): number | undefined {
  if (connection.refreshExpiresAt !== undefined) return connection.refreshExpiresAt;
  const lifetime = integration?.connection.oauth?.refreshTokenLifetime;
  return lifetime ? connection.updatedAt + lifetime.defaultS * 1000 : undefined;
}

/** Whether the refresh token ends within `windowMs` of `now` (keep-alive's window), as far as anything says. */
export function endsWithin(
  connection: Pick<Connection, 'refreshExpiresAt' | 'updatedAt'>,
  integration: Integration | undefined,
  now: number,
  windowMs: number,
): boolean {
  const end = refreshTokenEnd(connection, integration);
  return end !== undefined && end - now <= windowMs;
}
