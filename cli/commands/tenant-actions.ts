import type { Command } from 'commander';
import { InputError } from '../../src/errors/input-error.js';
import { parseTenantId, type TenantId } from '../../src/model/tenant-id.js';
import { cliStores } from '../cli-stores.js';
import { cliTenant, cliTenantChosen, selectTenantFor } from '../cli-tenant.js';
import { EXIT_FAILURE, printJson } from '../output.js';
import { revocationLine, revocationTroubled } from '../revocation-lines.js';
import { triggerContext } from '../trigger-context.js';

export async function listTenants(_options: unknown, command: Command): Promise<void> {
  const summaries = await (await cliStores()).tenants.tenants();
  if (command.optsWithGlobals().json) {
    printJson(summaries);
    return;
  }
  if (!summaries.length) process.stdout.write('No tenant holds a record yet.\n');
  for (const { tenant, connections, subscriptions } of summaries) {
    process.stdout.write(
      `${tenant.padEnd(24)} ${connections} connection${connections === 1 ? '' : 's'}, ${subscriptions} subscription${subscriptions === 1 ? '' : 's'}\n`,
    );
  }
}

/**
 * Erases the named tenant. The run becomes that tenant's before any store
 * opens, so the runtime that removes its webhooks reaches its connections
 * and no other's; a different `--tenant` beside it is refused as ambiguous.
 */
export async function deleteTenant(id: string, options: { yes?: boolean }, command: Command): Promise<void> {
  const tenant = parseTenantId(id);
  if (cliTenantChosen() && cliTenant() !== tenant) {
    throw new InputError(
      `tenants delete ${tenant} was given --tenant ${cliTenant()} (or TOOLSTEPS_TENANT) too; name one tenant.`,
      [{ path: 'tenant', message: 'two different tenants' }],
    );
  }
  if (!options.yes) {
    throw new InputError(
      `Erasing ${tenant} removes its webhooks at the providers, deletes every record and destroys its data key; it cannot be undone. Add --yes to go ahead.`,
      [{ path: 'yes', message: 'required' }],
    );
  }
  selectTenantFor(tenant);
  const [{ registry, runtime, stores }, { eraseTenant }] = await Promise.all([
    triggerContext(),
    import('../../src/tenants/erase-tenant.js'),
  ]);
  const { redisUrl } = stores;
  // With Redis, `listen --queue` may hold the tenant's events: they go too.
  const queuedEvents = redisUrl
    ? async (one: TenantId) =>
        (await import('../../src/coordination/erase-queued-events.js')).eraseQueuedEvents({
          redisUrl,
          tenant: one,
        })
    : undefined;
  const erasure = await eraseTenant({
    tenantStores: stores.tenants,
    tenant,
    runtime,
    triggers: registry,
    caller: 'cli',
    ...(queuedEvents ? { queuedEvents } : {}),
  });
  // A grant that may still be alive at its provider (pending, given up) is worth a non-zero exit.
  if (erasure.connections.some((connection) => revocationTroubled(connection.revocation))) {
    process.exitCode = EXIT_FAILURE;
  }
  if (command.optsWithGlobals().json) {
    printJson(erasure);
    return;
  }
  for (const removal of erasure.subscriptions) {
    process.stdout.write(`Removed subscription ${removal.id}: ${removal.provider}\n`);
  }
  for (const connection of erasure.connections) {
    process.stdout.write(`${revocationLine(`Connection ${connection.id}'s grant`, connection.revocation)}\n`);
  }
  if (erasure.queuedEvents) {
    const { removed, running } = erasure.queuedEvents;
    process.stdout.write(
      `Deleted ${removed} queued event${removed === 1 ? '' : 's'}${running ? ` (${running} being run by a worker finish${running === 1 ? 'es' : ''})` : ''}.
`,
    );
  }
  const { connections, subscriptions } = erasure.erased;
  process.stdout.write(
    `Erased tenant ${tenant}: ${connections} connection${connections === 1 ? '' : 's'} and ${subscriptions} subscription${subscriptions === 1 ? '' : 's'} deleted, with its data key and every other record.\n`,
  );
}
