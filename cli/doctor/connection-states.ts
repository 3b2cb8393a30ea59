import type { Registry } from '../../src/catalog/registry.js';
import { connectionState, type StoredConnectionView } from '../../src/connection/connection-state.js';
import type { DoctorCheck } from './doctor-check.js';

/**
 * Each stored connection's token, read from the store (no request): an
 * expired token nothing can refresh fails, one about to expire warns.
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
    const refresh =
      state.refreshable === null ? 'refresh unknown' : state.refreshable ? 'refreshable' : 'not refreshable';
    const expiry = state.expiresAt ? `${state.state} (expires ${state.expiresAt}), ${refresh}` : 'no expiry';
    const known = integration ? '' : ' [unknown integration]';
    details.push(
      `${connection.id} (${connection.integration}${known}): ${expiry}${state.advice ? ` - ${state.advice}` : ''}`,
    );
    if (state.advice || !integration)
      worst = state.state === 'expired' || !integration ? 'fail' : worst === 'fail' ? worst : 'warn';
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
