import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';

/** `audit`: the run's tenant's audit trail of write and destructive step runs. */
export default function registerAuditCommand(program: Command): void {
  program
    .command('audit')
    .description(
      "The tenant's audit trail (the global --tenant or TOOLSTEPS_TENANT): every write or destructive step run and every write to its stores (connections, subscriptions, tokens, limits, erasure), when, by whom (a token id, a session or the CLI), and how it ended; never an input value or a secret. Records in Redis or Postgres are checked first: altered, forged or missing ones are reported on stderr (exit 1), never shown. With --json, the records as JSON.",
    )
    .option('--since <time>', 'only records from this ISO 8601 time, or this age back (30m, 1h, 7d)')
    .option('--limit <n>', 'at most this many records, the newest', '1000')
    .action(lazyAction(() => import('./audit-action.js'), 'showAudit'));
}
