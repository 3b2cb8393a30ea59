import type { Command } from 'commander';
import { isToolstepsError } from '../../src/errors/index.js';
import type { Integration } from '../../src/step/define-integration.js';
import { withProviderSession } from '../../src/triggers/provider-session.js';
import { cliContext } from '../cli-context.js';
import { connectionState } from '../connection-state.js';
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
}

/** What a failed check means for the user, from the error's code. */
function failureSays(error: unknown): string {
  if (!isToolstepsError(error)) return error instanceof Error ? error.message : String(error);
  const advice: Partial<Record<string, string>> = {
    auth_failed: 'the credentials were refused',
    reauthorization_required: 'the credentials were refused; sign in again (toolsteps connect --force)',
    permission_denied: 'the credentials work, but may not read this',
    network_error: 'the provider could not be reached',
    timeout: 'the provider did not answer in time',
  };
  return `${advice[error.code] ?? error.code}: ${error.message}`;
}

/** Sends the integration's cheapest authenticated read with the connection, through the runtime. */
async function checkWith(
  integration: Integration,
  id: string,
): Promise<Omit<TestReport, 'id' | 'integration' | 'token'>> {
  const check = integration.connectionCheck;
  if (!check || 'unavailable' in check) {
    return {
      ok: null,
      request: null,
      says: check?.unavailable ?? `${integration.id} declares no free read to test with.`,
    };
  }
  const request = `GET ${check.path}`;
  const { runtime } = await cliContext();
  try {
    const answer = await withProviderSession(
      runtime,
      { integration, title: `Test connection ${id}` },
      id,
      (context) => context.http.request({ method: 'GET', path: check.path }),
    );
    const read = check.describe?.(answer.body) ?? { ok: true, says: 'credentials accepted' };
    return { ok: read.ok, request: `${request} -> ${answer.status}`, says: read.says };
  } catch (error) {
    return { ok: false, request, says: failureSays(error) };
  }
}

/** `connections test <id>`: one free authenticated read, and what it says works. Exit 1 when it fails. */
export async function testConnection(id: string, _options: unknown, command: Command): Promise<void> {
  const { registry, store } = await cliContext();
  const connection = await requireConnection(store, id);
  const integration = registry.integration(connection.integration);
  const token = connectionState(connection, integration);
  const result = integration
    ? await checkWith(integration, id)
    : { ok: false, request: null, says: `unknown integration "${connection.integration}"` };
  const report: TestReport = { id, integration: connection.integration, ...result, token };
  if (command.optsWithGlobals().json) printJson(report);
  else {
    const verdict = report.ok === null ? 'not tested' : report.ok ? 'works' : 'FAILED';
    process.stdout.write(`${id} (${report.integration}): ${verdict}\n`);
    if (report.request) process.stdout.write(`  ${report.request}\n`);
    process.stdout.write(`  ${report.says}\n`);
    const expiry = token.expiresAt ? `${token.state}, expires ${token.expiresAt}` : 'no expiry';
    process.stdout.write(`  token: ${expiry}${token.refreshable ? ', refreshable' : ''}\n`);
  }
  if (report.ok === false) process.exitCode = EXIT_FAILURE;
}
