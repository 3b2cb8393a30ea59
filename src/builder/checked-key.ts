import type { Connection } from '../model/connection.js';
import type { Integration } from '../model/define-integration.js';
import { checkNewAccount, keyRefused, noteCheck } from './account-check.js';
import type { ApiCall } from './api-call.js';
import { toConnectionView } from './connection-view.js';

/** Writes (or puts back) a connection, recorded in the tenant's audit trail as the caller's. */
async function recordStore(call: ApiCall, connection: Connection): Promise<void> {
  const entry = { action: 'connection.store' as const, target: connection.id, caller: call.claims.tokenId };
  await call.tenant.runtime.recordWrite({ ...entry, integration: connection.integration }, () =>
    call.tenant.stores.connections.put(connection),
  );
}

/**
 * Stores a key and checks it at once with the provider's free read, so a
 * wrong key is refused at the form rather than at the first step's run:
 * refused, the connection is removed (or the replaced key put back) and
 * the person reads why. The account's name, where the answer has one,
 * becomes its label.
 */
export async function storeCheckedKey(
  call: ApiCall,
  integration: Integration,
  connection: Connection,
  previous: Connection | undefined,
) {
  await recordStore(call, connection);
  const { runtime, stores } = call.tenant;
  const report = await checkNewAccount(runtime, integration, connection.id, call.claims.tokenId);
  if (report.ok === false) {
    if (previous) await recordStore(call, previous);
    else {
      const entry = {
        action: 'connection.remove' as const,
        target: connection.id,
        caller: call.claims.tokenId,
      };
      await runtime.recordWrite({ ...entry, integration: integration.id }, () =>
        stores.connections.remove(connection.id),
      );
    }
    throw keyRefused(integration, report);
  }
  const checked = await noteCheck(stores.connections, connection.id, report, call.server.now());
  return toConnectionView(checked, integration, call.server.now());
}
