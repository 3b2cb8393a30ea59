import type { Command } from 'commander';
import { healthOfCheck } from '../../src/connection/check-health.js';
import { assessHealth } from '../../src/connection/connection-health.js';
import { connectionState } from '../../src/connection/connection-state.js';
import { recordLifecycle } from '../../src/connection/record-lifecycle.js';
import type { ConnectionHealth } from '../../src/model/connection-health.js';
import { runConnectionCheck } from '../../src/runtime/run-connection-check.js';
import { cliContext } from '../cli-context.js';
import { keepAliveWindowMs } from '../keep-alive-window.js';
import { EXIT_FAILURE, printJson } from '../output.js';
import { requireConnection } from './existing-connection.js';

interface TestReport {
  id: string;
  integration: string;
  /** true: the read worked; false: it did not; null: the provider has no free read to test with. */
  ok: boolean | null;
  request: string | null;
  says: string;
  token: ReturnType<typeof connectionState>;
  /** The connection's health after the check, in the one vocabulary; the check's own finding is recorded. */
  health: Omit<ConnectionHealth, 'checkedAt'> & { checkedAt: string };
}

/** `connections test <id>`: one free authenticated read, and what it says works. Exit 1 when it fails. */
export async function testConnection(id: string, _options: unknown, command: Command): Promise<void> {
  const { registry, store, runtime } = await cliContext();
  const connection = await requireConnection(store, id);
  const integration = registry.integration(connection.integration);
  const token = connectionState(connection, integration);
  const { code, ...result } = integration
    ? await runConnectionCheck(runtime, integration, id)
    : { ok: false, request: null, says: `unknown integration "${connection.integration}"`, code: null };
  const now = Date.now();
  const found = healthOfCheck(result.ok, code, now);
  const recorded = found ? await recordLifecycle(store, id, { health: found }) : undefined;
  const health = assessHealth(
    recorded ?? (await store.get(id)) ?? connection,
    integration,
    now,
    keepAliveWindowMs(),
  );
  const report: TestReport = {
    id,
    integration: connection.integration,
    ...result,
    token,
    health: { ...health, checkedAt: new Date(health.checkedAt).toISOString() },
  };
  if (command.optsWithGlobals().json) printJson(report);
  else {
    const verdict = report.ok === null ? 'not tested' : report.ok ? 'works' : 'FAILED';
    process.stdout.write(`${id} (${report.integration}): ${verdict}\n`);
    if (report.request) process.stdout.write(`  ${report.request}\n`);
    const wayOn =
      code === 'reauthorization_required'
        ? ` (toolsteps connect ${report.integration} --id ${id} --force)`
        : '';
    process.stdout.write(`  ${report.says}${wayOn}\n`);
    const expiry = token.expiresAt ? `${token.state}, expires ${token.expiresAt}` : 'no expiry';
    process.stdout.write(`  token: ${expiry}${token.refreshable ? ', refreshable' : ''}\n`);
    process.stdout.write(`  health: ${health.state}${health.reason ? ` (${health.reason})` : ''}\n`);
  }
  if (report.ok === false) process.exitCode = EXIT_FAILURE;
}
