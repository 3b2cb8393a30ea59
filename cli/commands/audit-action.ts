import type { Command } from 'commander';
import { type AuditProblem, type AuditRecord, verifyTrail } from '../../src/store/audit/audit-trail.js';
import { cliStores } from '../cli-stores.js';
import { integerOption } from '../option-values.js';
import { EXIT_FAILURE, printJson } from '../output.js';
import { sinceOption } from '../since-option.js';

/** One record as a line: time, outcome, what (a step, or a write), on what (a connection, or the id written), who. */
function auditLine(record: AuditRecord): string {
  const outcome = record.outcome === 'ok' ? 'ok' : `error ${record.error_code ?? ''}`.trim();
  const [what, on, test] =
    'step' in record
      ? [record.step, record.connection, record.test ? ' (test)' : '']
      : [record.action, record.target, ''];
  return `${record.at}  ${outcome.padEnd(28)} ${what.padEnd(34)} ${on.padEnd(20)} ${record.caller}${test}\n`;
}

export async function showAudit(options: { since?: string; limit: string }, command: Command): Promise<void> {
  const query = {
    ...(options.since === undefined ? {} : { since: sinceOption(options.since) }),
    limit: integerOption(options.limit, '--limit', { min: 1, max: 100_000 }),
  };
  const stores = await cliStores();
  // Only records that verify are shown; what a store writer without the keys altered, forged or removed is said apart.
  const { records, problems } = await verifyTrail(stores.audit, query);
  reportProblems(problems);
  if (command.optsWithGlobals().json) {
    printJson(records);
    return;
  }
  if (!records.length) {
    process.stdout.write(
      `No audit record for tenant ${stores.tenant}${options.since ? ' in that time' : ''}.\n`,
    );
    return;
  }
  for (const record of records) process.stdout.write(auditLine(record));
}

/** On stderr, one line each, and a failing exit: a trail that does not verify must not pass for a clean one. */
function reportProblems(problems: readonly AuditProblem[]): void {
  if (!problems.length) return;
  process.stderr.write(
    `The audit trail does not verify (${problems.length} problem${problems.length === 1 ? '' : 's'}); the records shown are those that do:\n`,
  );
  for (const problem of problems) process.stderr.write(`  ${problem.kind}: ${problem.message}\n`);
  process.exitCode = EXIT_FAILURE;
}
