import { type Migration, SCHEMA } from './migration.js';
import { TENANT_COLUMN, tenantWall } from './tenant-wall.js';

/** Each tenant's fair-share limits (calls per minute, credits per day): one row per tenant, walled like the others. */
export const tenantLimits: Migration = {
  version: 4,
  name: 'tenant limits',
  sql: `
CREATE TABLE ${SCHEMA}.tenant_limits (
  ${TENANT_COLUMN},
  limits jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant)
);
${tenantWall('tenant_limits')}`,
};
