import { NetworkError, TimeoutError, ToolstepsError } from '../../errors/index.js';
import { redactSecrets } from '../../errors/redaction.js';

/** SQLSTATE classes and codes that pass: the server is away, starting, stopping, full, or lost a race. */
const PASSING_CLASSES = ['08', '53', '57P0', '40001', '40P01'];
/** The statement, or the wait for a lock, ran past its deadline. */
const TIMEOUT_STATES = new Set(['57014', '55P03']);
/** What node-postgres throws while it has no answer in time (connect, read). */
const CLIENT_TIMEOUT = /timeout/i;

function stateOf(error: Error): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * What a failed call to Postgres means to every caller: a retryable
 * `network_error` while the server is unreachable or going away, a
 * retryable `timeout` past a deadline, and a `network_error` that is not
 * retryable when the server refused the query for good (credentials,
 * privileges, a missing database). Nothing reached a provider: a store call
 * comes before the request it guards. The message names the server by host
 * and port (`where`), never the URL's password. An error that is already
 * ours passes.
 */
export function postgresFailure(where: string, error: unknown, password?: string): ToolstepsError {
  if (ToolstepsError.isInstance(error)) return error;
  const raw = error instanceof Error ? error : new Error(String(error));
  const state = stateOf(raw);
  const said = redactSecrets(raw.message.split('\n')[0]?.slice(0, 300) ?? '', [password]);
  const init = {
    sent: false as const,
    transportCode: state ?? raw.name,
    context: { postgres: where },
    cause: raw,
  };
  if ((state && TIMEOUT_STATES.has(state)) || (!state?.match(/^[0-9A-Z]{5}$/) && CLIENT_TIMEOUT.test(said))) {
    return new TimeoutError(
      `PostgreSQL at ${where} did not answer in time (${said}); nothing was sent to the provider.`,
      {
        ...init,
        retryable: true,
        hint: 'Try again; if it keeps happening, check the database server and its load.',
      },
    );
  }
  const sqlState = state !== undefined && /^[0-9A-Z]{5}$/.test(state);
  const retryable = !sqlState || PASSING_CLASSES.some((prefix) => state.startsWith(prefix));
  return new NetworkError(
    `PostgreSQL at ${where} ${sqlState && !retryable ? 'refused the query' : 'is not available'} (${said}); nothing was sent to the provider.`,
    {
      ...init,
      retryable,
      hint: retryable
        ? 'Try again once the database answers (TOOLSTEPS_DATABASE_URL).'
        : 'Sending it again gets the same answer: check the user, database and privileges in TOOLSTEPS_DATABASE_URL, and that `toolsteps db migrate` ran.',
    },
  );
}
