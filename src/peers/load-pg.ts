import { missingPeer } from './optional-peer.js';
import type { PgPool } from './pg-client.js';
import { urlWithoutCredentials } from './url-without-credentials.js';

/** The semver range of node-postgres this package is written against. */
export const PG_RANGE = '^8.16.0';

/** Every wait on Postgres has a deadline: these are the defaults, in milliseconds. */
export interface PgDeadlines {
  /** To open a connection (TCP, TLS, authentication), and to get one from the pool. Default 5 s. */
  connectMs?: number;
  /** For one statement, on the server (`statement_timeout`) and, a little later, in this process (`query_timeout`). Default 15 s. */
  statementMs?: number;
  /** How many connections the pool opens at most. Default 10. */
  max?: number;
}

/**
 * A node-postgres pool, pg being an optional peer imported only here, when
 * TOOLSTEPS_DATABASE_URL is set. Every wait is bounded: a server that does
 * not answer fails a call within `connectMs` or `statementMs` instead of
 * holding it; a session left idle inside a transaction is ended by the
 * server; TCP keepalive notices a peer that vanished.
 */
export async function openPgPool(url: string, deadlines: PgDeadlines = {}): Promise<PgPool> {
  const { default: pg } = await import('pg').catch(
    missingPeer('pg', PG_RANGE, 'The PostgreSQL store (TOOLSTEPS_DATABASE_URL)'),
  );
  const connectMs = deadlines.connectMs ?? 5_000;
  const statementMs = deadlines.statementMs ?? 15_000;
  const pool = new pg.Pool({
    connectionString: url,
    max: deadlines.max ?? 10,
    connectionTimeoutMillis: connectMs,
    statement_timeout: statementMs,
    query_timeout: statementMs + 2_000,
    idle_in_transaction_session_timeout: statementMs * 2,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    application_name: 'toolsteps',
  });
  // A client whose server went away emits 'error', idle in the pool or checked out between two
  // queries (a lock held across a token refresh): unheard, that would end the process. The
  // query that needed it reports it to its caller instead.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const typed: PgPool = pool;
  return typed;
}

/** A Postgres URL without its user, password or parameters (`?password=` is one), for messages and the doctor. */
export function postgresWhere(url: string): string {
  return urlWithoutCredentials(url, 'TOOLSTEPS_DATABASE_URL', true);
}
