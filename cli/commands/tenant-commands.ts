import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';

/** `tenants list` and `tenants delete <id>`: the organizations the store holds, and erasing one. */
export default function registerTenantCommands(program: Command): void {
  const tenants = program
    .command('tenants')
    .description('The tenants (organizations) the store holds: list them with counts, or erase one.');
  tenants
    .command('list')
    .description('Every tenant that holds a record, with how many connections and subscriptions; no secret.')
    .action(lazyAction(() => import('./tenant-actions.js'), 'listTenants'));
  tenants
    .command('delete <tenant>')
    .description(
      "Erase a tenant: remove its trigger subscriptions' webhooks and rules at the providers, delete every record, and destroy its data key.",
    )
    .option('--yes', 'confirm the erasure (it cannot be undone)')
    .action(lazyAction(() => import('./tenant-actions.js'), 'deleteTenant'));
}
