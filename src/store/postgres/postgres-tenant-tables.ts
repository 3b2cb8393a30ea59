import { SCHEMA } from './migrations/migration.js';

/** Every table with a tenant column, erased with the tenant. */
export const TENANT_TABLES = [
  'data_keys',
  'connections',
  'subscriptions',
  'connection_refresh',
  'token_revocations',
  'audit_events',
  'tenant_limits',
  'tenant_guards',
  // Every tenant's are the default tenant's rows: erasing another tenant leaves them to be sent.
  'pending_revocations',
];

/** One tenant's count of each kind of record, across every tenant, in one read-only statement. */
export const COUNT_TENANTS = `
SELECT tenant, sum(connections)::int AS connections, sum(subscriptions)::int AS subscriptions FROM (
  SELECT tenant, count(*) AS connections, 0 AS subscriptions FROM ${SCHEMA}.connections GROUP BY tenant
  UNION ALL
  SELECT tenant, 0, count(*) FROM ${SCHEMA}.subscriptions GROUP BY tenant
) AS counted GROUP BY tenant ORDER BY tenant`;
