import type { Command } from 'commander';
import type { Registry } from '../../src/catalog/registry.js';
import type { RetryPendingReport } from '../../src/connection/retry-pending-revocations.js';
import { NotFoundError } from '../../src/errors/not-found-error.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import type { TenantStores } from '../../src/store/tenant-stores.js';
import { cliContext } from '../cli-context.js';
import { EXIT_FAILURE, printJson } from '../output.js';
import { revocationLine, revocationTroubled } from '../revocation-lines.js';

/**
 * Sends the pending revocations that are due (every tenant's: they outlive
 * an erased tenant), as a command that opened the store does first, so a
 * revocation that failed is retried by the next run without anyone asking.
 */
export async function retryDueRevocations(
  registry: Registry,
  runtime: Runtime,
  tenants: TenantStores,
  options: { ignoreBackoff?: boolean } = {},
): Promise<RetryPendingReport> {
  const { retryPendingRevocations } = await import('../../src/connection/retry-pending-revocations.js');
  return retryPendingRevocations(tenants, {
    integration: (id) => registry.integration(id),
    clock: runtime.clock,
    logger: runtime.logger,
    fetch: runtime.fetch,
    dispatcher: runtime.httpDispatcher,
    ...(options.ignoreBackoff ? { ignoreBackoff: true } : {}),
  });
}

function subjectOf(outcome: RetryPendingReport['outcomes'][number]): string {
  const { id, integration } = outcome.connection;
  return `${outcome.tenant}/${id} (${integration}, ${outcome.pendingId})`;
}

/** Prints what a retry pass did on stderr (the command's own answer keeps stdout); true when a grant may still be alive. */
export function reportRetries(report: RetryPendingReport): boolean {
  for (const outcome of report.outcomes) {
    process.stderr.write(`Pending revocation ${revocationLine(subjectOf(outcome), outcome.revocation)}\n`);
  }
  return report.outcomes.some((outcome) => revocationTroubled(outcome.revocation));
}

/**
 * `connections remove <id>`: removes the connection at once, then revokes
 * its grant at the provider; a revocation that fails is kept and retried
 * (pending), and the command exits 1 while the grant may still be alive.
 * Pending revocations that are due are retried first.
 */
export async function removeConnection(id: string, _options: unknown, command: Command): Promise<void> {
  const { registry, runtime, stores } = await cliContext();
  const earlier = await retryDueRevocations(registry, runtime, stores.tenants);
  const { removeConnection: remove } = await import('../../src/runtime/remove-connection.js');
  const removal = await remove(runtime, id, {
    integration: (one) => registry.integration(one),
    pendingRevocations: stores.tenants,
  });
  const troubledBefore = reportRetries(earlier);
  if (!removal.removed) {
    throw new NotFoundError(`No connection with id "${id}".`, {
      fields: [{ path: 'id', message: 'unknown' }],
    });
  }
  if (command.optsWithGlobals().json) printJson(removal);
  else
    process.stdout.write(`Removed connection "${id}".\n${revocationLine(`Its grant`, removal.revocation)}\n`);
  if (troubledBefore || revocationTroubled(removal.revocation)) process.exitCode = EXIT_FAILURE;
}

/**
 * `connections revoke-pending`: one pass over the pending revocations (due
 * ones, or all with `--now`), or with `--list` only what waits. Exits 1
 * while any grant may still be alive (pending or given up).
 */
export async function revokePending(
  options: { now?: boolean; list?: boolean },
  command: Command,
): Promise<void> {
  const { registry, runtime, stores } = await cliContext();
  const json = command.optsWithGlobals().json;
  if (options.list) {
    const { waitingReport } = await import('../../src/connection/retry-pending-revocations.js');
    const pending = (await stores.tenants.pendingRevocations?.list()) ?? [];
    const rows = pending.map((one) => ({
      pendingId: one.id,
      tenant: one.tenant,
      connection: {
        id: one.connection.id,
        integration: one.connection.integration,
        label: one.connection.label ?? null,
      },
      revocation: waitingReport(one),
    }));
    if (json) printJson(rows);
    else if (!rows.length) process.stdout.write('No pending revocations.\n');
    for (const row of json ? [] : rows)
      process.stdout.write(`${revocationLine(subjectOf(row), row.revocation)}\n`);
    if (rows.length) process.exitCode = EXIT_FAILURE;
    return;
  }
  const report = await retryDueRevocations(registry, runtime, stores.tenants, {
    ignoreBackoff: options.now ?? false,
  });
  if (json) printJson(report);
  else {
    for (const outcome of report.outcomes)
      process.stdout.write(`${revocationLine(subjectOf(outcome), outcome.revocation)}\n`);
    for (const waiting of report.waiting)
      process.stdout.write(`${revocationLine(subjectOf(waiting), waiting.revocation)}\n`);
    if (!report.outcomes.length && !report.waiting.length) process.stdout.write('No pending revocations.\n');
  }
  const troubled =
    report.waiting.length > 0 || report.outcomes.some((outcome) => revocationTroubled(outcome.revocation));
  if (troubled) process.exitCode = EXIT_FAILURE;
}
