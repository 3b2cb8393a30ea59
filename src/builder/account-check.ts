import { healthOfCheck } from '../connection/check-health.js';
import { InputError } from '../errors/index.js';
import type { Connection } from '../model/connection.js';
import type { ConnectionHealth } from '../model/connection-health.js';
import type { Integration } from '../model/define-integration.js';
import { type ConnectionCheckReport, runConnectionCheck } from '../runtime/run-connection-check.js';
import type { Runtime } from '../runtime/runtime.js';
import type { ConnectionStore } from '../store/connection-store.js';

/**
 * The longest a builder waits for a new account's check: a person is
 * watching the form. The transport's own caps (body size, per-attempt
 * deadline) hold inside it too, so a hostile provider can neither stall
 * the save nor fill the server's memory.
 */
const CHECK_AT_SAVE_MS = 15_000;

/** One free read with a just-stored connection, bounded for a person waiting on it. */
export function checkNewAccount(
  runtime: Runtime,
  integration: Integration,
  connectionId: string,
  caller: string | undefined,
): Promise<ConnectionCheckReport> {
  return runConnectionCheck(
    runtime,
    integration,
    connectionId,
    caller,
    AbortSignal.timeout(CHECK_AT_SAVE_MS),
  );
}

/** The check's verdict as stored on the connection, in the one vocabulary; none when it says nothing of the connection. */
export function healthOf(report: ConnectionCheckReport, now: number): ConnectionHealth | undefined {
  return healthOfCheck(report.ok, report.code, now);
}

/**
 * Keeps what a check learnt on the connection, in one read-modify-write (a
 * token refreshed meanwhile is kept): its health, and the account's name as
 * its label when it has none yet.
 */
export function noteCheck(
  store: ConnectionStore,
  id: string,
  report: ConnectionCheckReport,
  now: number,
): Promise<Connection> {
  const health = healthOf(report, now);
  return store.update(id, (current) => ({
    ...current,
    ...(health ? { health } : {}),
    ...(current.label === undefined && report.account ? { label: report.account.slice(0, 200) } : {}),
  }));
}

/** Why a key is refused at save, in words for the person at the form (no command-line advice). */
const KEY_REFUSED: Partial<Record<string, (title: string) => string>> = {
  auth_failed: (title) =>
    `${title} did not accept this API key. Check that you copied all of it and that it is still active.`,
  reauthorization_required: (title) =>
    `${title} did not accept this API key. Check that you copied all of it and that it is still active.`,
  permission_denied: (title) =>
    `${title} accepted this API key, but it may not read the account. Use a key with read access.`,
  network_error: (title) => `${title} could not be reached to check this API key. Try again in a moment.`,
  timeout: (title) => `${title} did not answer in time to check this API key. Try again in a moment.`,
};

/** Any other failure: the key may be fine, but nothing could confirm it. */
const KEY_UNCHECKED = (title: string) =>
  `${title} gave an answer that could not be read while checking this API key, so it was not saved. Try again in a moment.`;

/** The refusal of a key whose check failed; the connection was not kept. */
export function keyRefused(integration: Integration, report: ConnectionCheckReport): InputError {
  const says = report.code === null ? KEY_REFUSED.auth_failed! : (KEY_REFUSED[report.code] ?? KEY_UNCHECKED);
  return new InputError(says(integration.title), [{ path: 'apiKey', message: 'refused by the provider' }]);
}
