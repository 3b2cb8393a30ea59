import { assessHealth } from '../connection/connection-health.js';
import { connectionState } from '../connection/connection-state.js';
import type { Connection } from '../model/connection.js';
import type { Integration } from '../model/define-integration.js';

/** A connection as the API answers it: public fields and token state, never a secret. */
export function toConnectionView(connection: Connection, integration: Integration | undefined, now: number) {
  const token = connectionState(connection, integration, now);
  const health = assessHealth(connection, integration, now);
  return {
    id: connection.id,
    integration: connection.integration,
    label: connection.label ?? null,
    kind: connection.kind,
    fields: { ...connection.fields },
    expiresAt: token.expiresAt,
    state: token.state,
    health: {
      state: health.state,
      checkedAt: new Date(health.checkedAt).toISOString(),
      reason: health.reason ?? null,
    },
    createdAt: new Date(connection.createdAt).toISOString(),
    updatedAt: new Date(connection.updatedAt).toISOString(),
  };
}
