import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';

/** `tenants list`, `tenants delete <id>` and `tenants limits`: the organizations the store holds, erasing one, and their fair share. */
export default function registerTenantCommands(program: Command): void {
  const tenants = program
    .command('tenants')
    .description(
      'The tenants (organizations) the store holds: list them with counts, erase one, or set its limits.',
    );
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
  const limits = tenants
    .command('limits')
    .description("A tenant's fair share across every worker: calls per minute and credits per UTC day.");
  limits
    .command('set <tenant>')
    .description('Store limits for a tenant; each given limit replaces its old value, the others stay.')
    .option('--calls-per-minute <n>', 'most step runs in one UTC minute')
    .option('--credits-per-day <n>', 'most provider credits in one UTC day')
    .option('--clear', 'remove every limit first')
    .action(lazyAction(() => import('./tenant-limit-actions.js'), 'setTenantLimits'));
  limits
    .command('show [tenant]')
    .description("A tenant's stored limits (default: the run's tenant).")
    .action(lazyAction(() => import('./tenant-limit-actions.js'), 'showTenantLimits'));
}
