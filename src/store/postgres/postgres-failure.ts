import { NetworkError, TimeoutError, ToolstepsError } from '../../errors/index.js';
import { redactSecrets } from '../../errors/redaction.js';

/** SQLSTATE classes and codes that pass: the server is away, starting, stopping, full, or lost a race. */
const PASSING_CLASSES = ['08', '53', '57P0', '40001', '40P01'];
/** The statement, or the wait for a lock, ran past its deadline. */
const TIMEOUT_STATES = new Set(['57014', '55P03']);
/** What node-postgres throws while it has no answer in time (connect, read). */
const CLIENT_TIMEOUT = /timeout/i;
/**
 * SQLSTATE classes whose words name the server's user or database (a
 * connection refused, a role or a database that does not exist): said by
 * their code alone.
 */
const NAMING_CLASSES = ['08', '28', '3D'];
/** Addresses the driver's words may still hold: an IPv4 or bracketed IPv6 address with its port, a socket path. */
const ADDRESS_TEXT = /\[[0-9a-f:.]+\](:\d+)?|\b\d{1,3}(\.\d{1,3}){3}(:\d+)?|\/[^\s"']*\.s\.PGSQL\.\d+/gi;

function stateOf(error: Error): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Why, in words that hold no address: the server's own words for a query it
 * refused (a missing table, a privilege), never for a connection, a sign-in
 * or a database name; a system error (`ECONNREFUSED`, `ENOTFOUND`) by its
 * code, since its message names the host; any address left is cut out.
 */
function reasonOf(raw: Error, state: string | undefined, password: string | undefined): string {
  if (state && /^[0-9A-Z]{5}$/.test(state) && NAMING_CLASSES.some((prefix) => state.startsWith(prefix))) {
    return `SQLSTATE ${state}`;
  }
  if (state && /^E[A-Z0-9_]+$/.test(state)) return state;
  const said = raw.message.split('\n')[0]?.slice(0, 300) ?? '';
  return redactSecrets(said, [password]).replace(ADDRESS_TEXT, '(address)');
}

/**
 * What a failed call to Postgres means to every caller: a retryable
 * `network_error` while the server is unreachable or going away, a
 * retryable `timeout` past a deadline, and a `network_error` that is not
 * retryable when the server refused the query for good (credentials,
 * privileges, a missing database). Nothing reached a provider: a store call
 * comes before the request it guards. The message never names where the
 * database is (host, port, socket, user, database name): it reaches API
 * answers, and a tenant has no business knowing the address; an operator
 * finds it in TOOLSTEPS_DATABASE_URL and `toolsteps doctor`. An error that
 * is already ours passes.
 */
export function postgresFailure(error: unknown, password?: string): ToolstepsError {
  if (ToolstepsError.isInstance(error)) return error;
  const raw = error instanceof Error ? error : new Error(String(error));
  const state = stateOf(raw);
  const said = reasonOf(raw, state, password);
  const init = { sent: false as const, transportCode: state ?? raw.name, cause: raw };
  const sqlState = state !== undefined && /^[0-9A-Z]{5}$/.test(state);
  if ((state && TIMEOUT_STATES.has(state)) || (!sqlState && CLIENT_TIMEOUT.test(raw.message))) {
    return new TimeoutError(
      `PostgreSQL did not answer in time (${said}); nothing was sent to the provider.`,
      {
        ...init,
        retryable: true,
        hint: 'Try again; if it keeps happening, check the database server and its load.',
      },
    );
  }
  const retryable = !sqlState || PASSING_CLASSES.some((prefix) => state.startsWith(prefix));
  return new NetworkError(
    `PostgreSQL ${sqlState && !retryable ? 'refused the query' : 'is not available'} (${said}); nothing was sent to the provider.`,
    {
      ...init,
      retryable,
      hint: retryable
        ? 'Try again once the database answers (TOOLSTEPS_DATABASE_URL).'
        : 'Sending it again gets the same answer: check the user, database and privileges in TOOLSTEPS_DATABASE_URL, and that `toolsteps db migrate` ran.',
    },
  );
}
