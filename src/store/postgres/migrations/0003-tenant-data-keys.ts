import type { Migration } from './migration.js';
import { tenantRowTable } from './tenant-wall.js';

/**
 * Each tenant's data key, wrapped with the master key (`WrappedDataKey`):
 * one row per tenant, made on the tenant's first write, deleted with the
 * tenant, after which nothing it sealed opens, from a backup either.
 */
export const tenantDataKeys: Migration = {
  version: 3,
  name: 'per-tenant data keys',
  sql: tenantRowTable('data_keys', 'wrapped text NOT NULL'),
};
