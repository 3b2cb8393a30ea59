import { InputError, NotFoundError } from '../errors/index.js';
import { type Connection, connectionIdPattern } from '../model/connection.js';
import { subscriptionIdPattern } from '../model/subscription.js';
import type { ApiCall } from './api-call.js';
import { ApiRefusal } from './api-refusal.js';

/** Whether the token may use this integration at all (a token limited to some integrations). */
export function mayUseIntegration(call: Pick<ApiCall, 'claims'>, integration: string): boolean {
  const allowed = call.claims.integrations;
  return !allowed || allowed.includes(integration);
}

/** Refuses a request that would change something with a read-only token, before anything is read or sent. */
export function requireWritable(call: Pick<ApiCall, 'claims'>): void {
  if (call.claims.readOnly) {
    throw new ApiRefusal(403, 'forbidden', 'This token is read-only.');
  }
}

/**
 * The tenant's connection with this id. Another tenant's id is answered
 * exactly as an id nobody holds: the tenant's view of the store has no such
 * record, so nothing tells the two apart. An id no connection can have
 * (a NUL byte, text the database cannot take) is answered the same, without
 * asking the store at all.
 */
export async function requireConnection(call: ApiCall, id: string): Promise<Connection> {
  const connection = !connectionIdPattern.test(id)
    ? undefined
    : await call.tenant.stores.connections.get(id).catch((error: unknown) => {
        if (error instanceof InputError) return undefined; // a malformed id is simply not one of ours
        throw error;
      });
  if (!connection || !mayUseIntegration(call, connection.integration)) {
    throw new NotFoundError(`No connection with id "${id}".`, {
      fields: [{ path: 'connection', message: 'unknown connection id' }],
    });
  }
  return connection;
}

/**
 * May the token see this trigger's events and subscriptions: a token held
 * to some integrations sees no other's, as with connections.
 */
export function mayUseTrigger(call: Pick<ApiCall, 'claims' | 'server'>, triggerId: string): boolean {
  const integration = call.server.options.registry.trigger(triggerId)?.integration.id;
  return integration !== undefined && mayUseIntegration(call, integration);
}

/** The tenant's subscription with this id, of an integration the token may use; any other is not found, like a connection. */
export async function requireSubscription(call: ApiCall, id: string) {
  const subscription = !subscriptionIdPattern.test(id)
    ? undefined
    : await call.tenant.stores.subscriptions.get(id).catch((error: unknown) => {
        if (error instanceof InputError) return undefined;
        throw error;
      });
  if (!subscription || !mayUseTrigger(call, subscription.trigger)) {
    throw new NotFoundError(`No subscription with id "${id}".`, {
      fields: [{ path: 'subscription', message: 'unknown subscription id' }],
    });
  }
  return subscription;
}
