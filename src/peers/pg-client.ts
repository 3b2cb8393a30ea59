/** What a query answers: its rows, as node-postgres parses them (bigint and numeric as strings). */
export interface PgResult<Row = Record<string, unknown>> {
  rows: Row[];
  rowCount: number | null;
}

/**
 * The part of a node-postgres client (`import('pg').PoolClient`) the
 * Postgres store uses, declared here instead of imported so the published
 * type declarations compile where pg, an optional peer, is not installed.
 */
export interface PgClient {
  query<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<PgResult<Row>>;
  /** Gives the client back to its pool; with an error, the pool closes it instead (its session is suspect). */
  release(error?: Error | boolean): void;
  /** A string as a quoted SQL literal, node-postgres's own escaping: for the one statement that cannot carry parameters. */
  escapeLiteral(value: string): string;
}

/** The part of a node-postgres pool (`import('pg').Pool`) the Postgres store uses. */
export interface PgPool {
  query<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<PgResult<Row>>;
  connect(): Promise<PgClient>;
  end(): Promise<void>;
}

/** Whatever runs one query: a pool (any of its connections) or one client (its session). */
export type PgQueryable = Pick<PgPool, 'query'>;
