import type { Command } from 'commander';
import type { AuditRecord } from '../../src/store/audit/audit-trail.js';
import { cliStores } from '../cli-stores.js';
import { integerOption } from '../option-values.js';
import { printJson } from '../output.js';
import { sinceOption } from '../since-option.js';

/** One record as a line: time, outcome, step, connection, caller. */
function auditLine(record: AuditRecord): string {
  const outcome = record.outcome === 'ok' ? 'ok' : `error ${record.error_code ?? ''}`.trim();
  const test = record.test ? ' (test)' : '';
  return `${record.at}  ${outcome.padEnd(28)} ${record.step.padEnd(34)} ${record.connection.padEnd(20)} ${record.caller}${test}\n`;
}

export async function showAudit(options: { since?: string; limit: string }, command: Command): Promise<void> {
  const query = {
    ...(options.since === undefined ? {} : { since: sinceOption(options.since) }),
    limit: integerOption(options.limit, '--limit', { min: 1, max: 100_000 }),
  };
  const stores = await cliStores();
  const records = await stores.audit.read(query);
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
