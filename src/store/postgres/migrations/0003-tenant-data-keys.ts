import { type Migration, SCHEMA } from './migration.js';
import { TENANT_COLUMN, tenantWall } from './tenant-wall.js';

/**
 * Each tenant's data key, wrapped with the master key (`WrappedDataKey`):
 * one row per tenant, made on the tenant's first write, deleted with the
 * tenant, after which nothing it sealed opens, from a backup either.
 */
export const tenantDataKeys: Migration = {
  version: 3,
  name: 'per-tenant data keys',
  sql: `
CREATE TABLE ${SCHEMA}.data_keys (
  ${TENANT_COLUMN},
  wrapped text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant)
);
${tenantWall('data_keys')}`,
};
