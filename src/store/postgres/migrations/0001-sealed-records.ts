import { type Migration, SCHEMA } from './migration.js';
import { TENANT_COLUMN, tenantWall } from './tenant-wall.js';

/**
 * A table of sealed records as the Redis store keeps them in a hash: the
 * public part as written (text, byte for byte, since the seal covers it),
 * the sealed secrets, the id of the key that sealed them, the version the
 * seal is bound to, and the seal's format. The primary key (tenant, id) is
 * the one index a lookup and a tenant's list both use. Later migrations
 * make their sealed tables with it too; its text is part of this shipped
 * migration, so it never changes.
 */
export function sealedRecordsTable(table: string): string {
  return `
CREATE TABLE ${SCHEMA}.${table} (
  ${TENANT_COLUMN},
  id text NOT NULL,
  public_json text NOT NULL,
  sealed text NOT NULL,
  kid text NOT NULL,
  version bigint NOT NULL,
  format text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant, id)
);
${tenantWall(table)}`;
}

/**
 * Connections, trigger subscriptions, and the connections' refresh journal
 * (marks of refresh tokens and times, never a token, as in Redis; an entry
 * past `expires_at` counts as none).
 */
export const sealedRecords: Migration = {
  version: 1,
  name: 'connections, subscriptions and the refresh journal',
  sql: `
${sealedRecordsTable('connections')}
${sealedRecordsTable('subscriptions')}
CREATE TABLE ${SCHEMA}.connection_refresh (
  ${TENANT_COLUMN},
  id text NOT NULL,
  entry text NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (tenant, id)
);
${tenantWall('connection_refresh')}`,
};
