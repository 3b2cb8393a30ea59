import type { Registry } from '../../src/catalog/registry.js';
import { assessHealth } from '../../src/connection/connection-health.js';
import { connectionState, type StoredConnectionView } from '../../src/connection/connection-state.js';
import { keepAliveWindowMs } from '../keep-alive-window.js';
import type { DoctorCheck } from './doctor-check.js';

/**
 * Each stored connection's token and health, read from the store (no
 * request): an expired token nothing can refresh, or a connection that
 * `needs_reconnect`, fails; one about to expire, or `expiring`, warns.
 * `connections test <id>` asks the provider. A store read without its
 * secrets (Redis, no encryption key) says whether each can refresh is unknown.
 */
export async function checkConnectionStates(
  store: { list(): Promise<StoredConnectionView[]> },
  registry: Registry,
  now = Date.now(),
): Promise<DoctorCheck> {
  const connections = await store.list();
  const details: string[] = [];
  let worst: DoctorCheck['status'] = 'ok';
  for (const connection of connections) {
    const integration = registry.integration(connection.integration);
    const state = connectionState(connection, integration, now);
    const health = assessHealth(connection, integration, now, keepAliveWindowMs());
    const refresh =
      state.refreshable === null ? 'refresh unknown' : state.refreshable ? 'refreshable' : 'not refreshable';
    const expiry = state.expiresAt ? `${state.state} (expires ${state.expiresAt}), ${refresh}` : 'no expiry';
    const known = integration ? '' : ' [unknown integration]';
    details.push(
      `${connection.id} (${connection.integration}${known}): ${health.state}${health.reason ? ` (${health.reason})` : ''}, ${expiry}${adviceOf(connection, state.advice, health.state)}`,
    );
    const fails = state.state === 'expired' || !integration || health.state === 'needs_reconnect';
    const warns = Boolean(state.advice) || health.state !== 'healthy';
    if (fails) worst = 'fail';
    else if (warns && worst !== 'fail') worst = 'warn';
  }
  return {
    name: 'connections',
    status: connections.length ? worst : 'info',
    summary: connections.length
      ? `${connections.length} connection${connections.length === 1 ? '' : 's'}`
      : 'no connections yet (toolsteps connect / connections add)',
    details,
  };
}

/** What to do about a connection, when anything: sign in again for one that needs it. */
function adviceOf(connection: StoredConnectionView, advice: string | null, health: string): string {
  if (advice) return ` - ${advice}`;
  if (health !== 'needs_reconnect') return '';
  return ` - sign in again: toolsteps connect ${connection.integration} --id ${connection.id} --force`;
}
