import { sealedRecords } from './0001-sealed-records.js';
import { tokensAndAudit } from './0002-tokens-and-audit.js';
import { tenantDataKeys } from './0003-tenant-data-keys.js';
import { tenantLimits } from './0004-tenant-limits.js';
import { tenantGuards } from './0005-tenant-guards.js';
import { pendingRevocations } from './0006-pending-revocations.js';
import type { Migration } from './migration.js';

/** Every migration, in order; the last one's version is the schema this version of toolsteps needs. */
export const MIGRATIONS: readonly Migration[] = [
  sealedRecords,
  tokensAndAudit,
  tenantDataKeys,
  tenantLimits,
  tenantGuards,
  pendingRevocations,
];

/** The schema version this version of toolsteps reads and writes. */
export const SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;
