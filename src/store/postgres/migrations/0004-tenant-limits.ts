import type { Migration } from './migration.js';
import { tenantRowTable } from './tenant-wall.js';

/** Each tenant's fair-share limits (calls per minute, credits per day): one row per tenant, walled like the others. */
export const tenantLimits: Migration = {
  version: 4,
  name: 'tenant limits',
  sql: tenantRowTable('tenant_limits', 'limits jsonb NOT NULL'),
};
