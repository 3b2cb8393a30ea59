import { sealedRecordsTable } from './0001-sealed-records.js';
import type { Migration } from './migration.js';

/**
 * Revocations a disconnect could not send yet, sealed like connections
 * (their tokens are secrets). Every tenant's are kept under the default
 * tenant (and its data key), as in Redis: erasing a tenant deletes its own
 * rows and its data key, and what is still to be revoked for it must
 * outlive both.
 */
export const pendingRevocations: Migration = {
  version: 6,
  name: 'pending revocations',
  sql: sealedRecordsTable('pending_revocations'),
};
