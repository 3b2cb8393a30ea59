import { isToolstepsError } from '../../errors/index.js';
import type { AuditTrail, WriteRecord } from './audit-trail.js';

/** A caller label is a name, not a place for data: long ones are cut (as a step run's). */
const MAX_CALLER_LENGTH = 128;

/** What a write's record says besides when and how it ended. */
export type WriteEntry = Omit<WriteRecord, 'at' | 'outcome' | 'error_code'>;

/** Where a write's record goes, and what hears an append that failed. */
export interface WriteAudit {
  trail: AuditTrail | undefined;
  now: () => number;
  /** Default: nothing (the CLI and the builder pass one that warns). */
  onFailure?: ((error: unknown, record: WriteRecord) => void) | undefined;
}

/**
 * Runs one write to the stores and appends its record, whether it
 * succeeded or failed, with the id of whoever asked. As for a step run, an
 * append that fails never costs the caller the write's outcome: the write
 * has happened (or not) either way, and `onFailure` hears why the record
 * is missing.
 */
export async function auditedWrite<T>(
  audit: WriteAudit,
  entry: WriteEntry,
  work: () => Promise<T>,
): Promise<T> {
  const record = (outcome: 'ok' | 'error', errorCode?: string): WriteRecord => ({
    at: new Date(audit.now()).toISOString(),
    ...entry,
    caller: entry.caller.slice(0, MAX_CALLER_LENGTH),
    outcome,
    ...(errorCode === undefined ? {} : { error_code: errorCode }),
  });
  const append = async (written: WriteRecord): Promise<void> => {
    if (!audit.trail) return;
    try {
      await audit.trail.append(written);
    } catch (error) {
      audit.onFailure?.(error, written);
    }
  };
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await append(record('error', isToolstepsError(error) ? error.code : 'internal_error'));
    throw error;
  }
  await append(record('ok'));
  return result;
}
