import { SCHEMA } from './migration.js';

/**
 * Row-level security on a table keyed by tenant: the second wall behind the
 * tenant in every key and query. Every statement toolsteps runs sets
 * `app.tenant` for its transaction; rows of another tenant are invisible to
 * it and cannot be written by it, and a session that set no tenant sees no
 * row at all. FORCE applies the policies to the queries of the table's
 * owner too (the role that ran the migrations); only a superuser or a role
 * with BYPASSRLS goes around them, and only the owner may turn them off, so
 * the workers connect as another role (`db migrate --grant-to`).
 *
 * The one way across tenants is reading while `app.tenant_listing` is `on`:
 * `tenants()` counts rows per tenant that way, in a read-only transaction;
 * it never writes, so no write policy honours it.
 *
 * Shipped migrations call this: its text is part of them, so it never
 * changes; a different wall is a new migration.
 */
export function tenantWall(table: string): string {
  const name = `${SCHEMA}.${table}`;
  return `
ALTER TABLE ${name} ENABLE ROW LEVEL SECURITY;
ALTER TABLE ${name} FORCE ROW LEVEL SECURITY;
CREATE POLICY ${table}_own_tenant ON ${name}
  USING (tenant = current_setting('app.tenant', true))
  WITH CHECK (tenant = current_setting('app.tenant', true));
CREATE POLICY ${table}_tenant_listing ON ${name} FOR SELECT
  USING (current_setting('app.tenant_listing', true) = 'on');
`;
}

/** The tenant column every table starts with: the id pattern of `parseTenantId`, checked again by the database. */
export const TENANT_COLUMN = `tenant text NOT NULL CHECK (tenant ~ '^[a-z0-9][a-z0-9_-]{0,62}$')`;

/**
 * A table of one row per tenant: its value column and when it last changed,
 * walled like the others. Shipped migrations call this too, so its text never
 * changes either.
 */
export function tenantRowTable(table: string, column: string): string {
  return `
CREATE TABLE ${SCHEMA}.${table} (
  ${TENANT_COLUMN},
  ${column},
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant)
);
${tenantWall(table)}`;
}
