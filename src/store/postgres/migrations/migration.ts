/**
 * One step of the database schema: applied once, in its own transaction, by
 * `toolsteps db migrate`, and recorded in `toolsteps.schema_migrations`.
 * A migration that has shipped is never edited: a change is a new one.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** The Postgres schema (namespace) every toolsteps table lives in, apart from the embedder's own tables. */
export const SCHEMA = 'toolsteps';
