import { AuthError, type ErrorInit, StorageError, TimeoutError, ToolstepsError } from '../errors/index.js';
import type { Integration } from '../model/define-integration.js';
import type { RefreshEntry } from '../store/refresh-journal.js';

/** The command that gives a connection a new grant. */
export const reconnect = (integration: Integration, id: string) =>
  `run: toolsteps connect ${integration.id} --id ${id}`;

const errnoOf = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code) ? code : undefined;
};

const said = (error: unknown) =>
  ToolstepsError.isInstance(error) ? error.code : (errnoOf(error) ?? 'store error');

/** Only a new grant can help: the refresh token is refused or gone, and no one holds a newer one. */
export function reauthorizationNeeded(
  integration: Integration,
  id: string,
  message: string,
  init: ErrorInit = {},
): AuthError {
  return new AuthError(
    `${message} Connection "${id}" needs re-authorisation (${reconnect(integration, id)}).`,
    {
      ...init,
      retryable: false,
      reauthorize: true,
    },
  );
}

/** The provider refused this refresh token before, and the connection has not changed since. */
export function refusedBefore(integration: Integration, id: string, entry: RefreshEntry): AuthError {
  return reauthorizationNeeded(
    integration,
    id,
    `The token endpoint refused the refresh token of connection "${id}" at ${new Date(entry.at).toISOString()}; it is not sent again until the connection is reconnected or its secrets replaced, so nothing was sent.`,
    { sent: false },
  );
}

/** Another live process is sending this refresh token, or holds what it got and has not saved it yet. */
export function refreshingElsewhere(id: string, entry: Extract<RefreshEntry, { state: 'sending' }>) {
  return new TimeoutError(
    `Another toolsteps process (pid ${entry.pid} on ${entry.host}) is refreshing connection "${id}" and has not saved the new tokens yet, so its refresh token is not sent again from here; nothing was sent. Try again shortly.`,
    { retryable: true, sent: false, context: { connection: id } },
  );
}

/** What the refresh had to write before sending could not be written: nothing was sent. */
export function cannotWriteAhead(id: string, error: unknown): ToolstepsError {
  if (ToolstepsError.isInstance(error)) return error;
  return new StorageError(
    `Connection "${id}" was not refreshed: its refresh journal could not be written (${said(error)}), and a refresh token is sent only once what comes back can be kept. Nothing was sent; the refresh token is still good. Try again once the store has room.`,
    { sent: false, errno: errnoOf(error), context: { connection: id }, cause: error },
  );
}

/**
 * New tokens exist but the store could not save them. Not a reason to
 * re-authorise: they are kept (in this process, or in the file store's
 * journal) and saved by the next call that finds the store working.
 */
export function notSavedYet(id: string, error: unknown, where: 'process' | 'journal'): StorageError {
  const kept =
    where === 'process'
      ? 'they are kept in this process, which saves them on its next call to the connection'
      : 'they are kept in its refresh journal, but their access token no longer works, and no refresh is made from tokens that are not saved';
  return new StorageError(
    `The token endpoint issued new tokens for connection "${id}" but the connection store could not save them (${said(error)}); ${kept}. The connection does not need re-authorisation: try again once the store is back.`,
    { errno: errnoOf(error), context: { connection: id }, cause: error },
  );
}
