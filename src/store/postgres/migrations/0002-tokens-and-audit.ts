import { type Migration, SCHEMA } from './migration.js';
import { TENANT_COLUMN, tenantWall } from './tenant-wall.js';

/**
 * Revoked scoped tokens (kept until the token would have expired anyway)
 * and the audit trail of write steps, both per tenant. An audit record is
 * appended, never changed: `seq` orders a tenant's records, and the index on
 * (tenant, at) serves `audit --since`.
 */
export const tokensAndAudit: Migration = {
  version: 2,
  name: 'token revocations and the audit trail',
  sql: `
CREATE TABLE ${SCHEMA}.token_revocations (
  ${TENANT_COLUMN},
  token_id text NOT NULL,
  revoked_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (tenant, token_id)
);
${tenantWall('token_revocations')}
CREATE TABLE ${SCHEMA}.audit_events (
  ${TENANT_COLUMN},
  seq bigint GENERATED ALWAYS AS IDENTITY,
  at timestamptz NOT NULL,
  record jsonb NOT NULL,
  PRIMARY KEY (tenant, seq)
);
CREATE INDEX audit_events_tenant_at ON ${SCHEMA}.audit_events (tenant, at);
${tenantWall('audit_events')}`,
};
