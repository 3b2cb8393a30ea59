import { isToolstepsError } from '../src/errors/index.js';
import type { AuditTrail } from '../src/store/audit/audit-trail.js';
import { auditedWrite, type WriteEntry } from '../src/store/audit/audited-write.js';

/**
 * Runs one write a CLI command makes outside a runtime (a token minted or
 * revoked, limits set) and records it in the tenant's audit trail as the
 * CLI's. A record that could not be kept is said on stderr: the write
 * itself stands either way.
 */
export function cliAuditedWrite<T>(
  trail: AuditTrail | undefined,
  entry: Omit<WriteEntry, 'caller'>,
  work: () => Promise<T>,
): Promise<T> {
  const onFailure = (error: unknown) =>
    process.stderr.write(
      `Warning: the audit record of ${entry.action} ${entry.target} could not be kept (${isToolstepsError(error) ? error.code : ((error as Error)?.name ?? 'error')}).\n`,
    );
  if (!trail) {
    process.stderr.write(
      `Warning: the audit record of ${entry.action} ${entry.target} could not be kept (the store did not open).\n`,
    );
  }
  return auditedWrite({ trail, now: Date.now, onFailure }, { ...entry, caller: 'cli' }, work);
}
