import type { ConnectionHealth } from '../model/connection-health.js';

/** Error codes of a failed check, and the state each means. */
const STATE_OF_FAILURE: Readonly<Record<string, ConnectionHealth['state']>> = {
  rate_limited: 'rate_limited',
  network_error: 'unreachable',
  timeout: 'unreachable',
  auth_failed: 'needs_reconnect',
  reauthorization_required: 'needs_reconnect',
};

/**
 * The health a provider read says (`connections test`, keep-alive's check of
 * a connection without a refresh token): a read that worked is `healthy`; a
 * failure whose code says something about the connection is that state;
 * any other failure (a permission, a provider error) says nothing about it,
 * so undefined: the record stays as it was.
 */
export function healthOfCheck(
  ok: boolean | null,
  code: string | null,
  now: number,
): ConnectionHealth | undefined {
  if (ok === true)
    return { state: 'healthy', checkedAt: now, reason: 'the provider accepted the credentials' };
  const state = code ? STATE_OF_FAILURE[code] : undefined;
  return state ? { state, checkedAt: now, reason: code as string } : undefined;
}
