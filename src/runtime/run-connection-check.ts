import { isToolstepsError } from '../errors/index.js';
import type { Integration } from '../model/define-integration.js';
import { withProviderSession } from './provider-session.js';
import type { Runtime } from './runtime.js';

/** How one connection check went. */
export interface ConnectionCheckReport {
  /** true: the read worked; false: it did not; null: the provider has no free read to test with. */
  ok: boolean | null;
  request: string | null;
  says: string;
  /** The error code when the read failed (`reauthorization_required`: sign in again). */
  code: string | null;
  /** Whom the credentials act for, where the provider's answer says (an email, a user or team name). */
  account?: string;
}

/** What a failed check means for the user, from the error's code. */
function failureSays(error: unknown): string {
  if (!isToolstepsError(error)) return error instanceof Error ? error.message : String(error);
  const advice: Partial<Record<string, string>> = {
    auth_failed: 'the credentials were refused',
    // No command named here: a builder's page shows this line too (the CLI adds its own way on).
    reauthorization_required: 'the credentials were refused; sign in again',
    permission_denied: 'the credentials work, but may not read this',
    network_error: 'the provider could not be reached',
    timeout: 'the provider did not answer in time',
  };
  return `${advice[error.code] ?? error.code}: ${error.message}`;
}

/**
 * Sends the integration's cheapest authenticated read with the connection,
 * through the runtime (so a near-expiry token is refreshed first): for
 * `connections test` and the builder API's connection test.
 */
export async function runConnectionCheck(
  runtime: Runtime,
  integration: Integration,
  id: string,
  caller?: string,
  signal?: AbortSignal,
): Promise<ConnectionCheckReport> {
  const check = integration.connectionCheck;
  if (!check || 'unavailable' in check) {
    return {
      ok: null,
      request: null,
      says: check?.unavailable ?? `${integration.id} declares no free read to test with.`,
      code: null,
    };
  }
  const request = `GET ${check.path}`;
  try {
    const answer = await withProviderSession(
      runtime,
      { integration, title: `Test connection ${id}` },
      { connection: id, caller, signal },
      (context) => context.http.request({ method: 'GET', path: check.path }),
    );
    const read = check.describe?.(answer.body) ?? { ok: true, says: 'credentials accepted' };
    return {
      ok: read.ok,
      request: `${request} -> ${answer.status}`,
      says: read.says,
      code: null,
      ...(read.ok && read.account ? { account: read.account } : {}),
    };
  } catch (error) {
    return {
      ok: false,
      request,
      says: failureSays(error),
      code: isToolstepsError(error) ? error.code : null,
    };
  }
}
