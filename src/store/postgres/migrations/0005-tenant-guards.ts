import type { Migration } from './migration.js';
import { tenantRowTable } from './tenant-wall.js';

/**
 * Each tenant's guard: its revoked tokens and limits, sealed with its data
 * key under a version (`GuardSeal`), one row per tenant, made with the data
 * key. It replaces `token_revocations` and `tenant_limits`, whose plain rows
 * a writer without the keys could delete or raise; those tables stay, unread.
 */
export const tenantGuards: Migration = {
  version: 5,
  name: 'sealed tenant guards',
  sql: tenantRowTable('tenant_guards', 'sealed text NOT NULL'),
};
