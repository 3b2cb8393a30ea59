import type { AuditSeal } from './audit-chain.js';
import {
  type AuditQuery,
  type AuditReading,
  DEFAULT_AUDIT_READ_LIMIT,
  selectRecords,
} from './audit-trail.js';
import { verifyChain } from './verify-chain.js';

/** What a backend that can read its chain newest first fetched for one window. */
export interface FetchedWindow {
  /** Up to `count` stored entries, newest first, as stored (nothing parsed or trusted yet). */
  newestFirst: unknown[];
  /** The stored head, undefined when there is none. */
  head: unknown;
  /** Whether a window that holds all there was must start at record 1 (false where a cap may have trimmed it). */
  startsAtOne: boolean;
}

/**
 * Reads the newest window of a chain the way Redis and Postgres both can:
 * one entry more than asked (the link into the window), turned oldest
 * first, verified against the seal and the head, then filtered by the
 * query (`since` is read from each record's own time, as every backend does).
 */
export async function readChainWindow(
  seal: AuditSeal,
  floor: number,
  query: AuditQuery,
  fetch: (count: number) => Promise<FetchedWindow>,
): Promise<AuditReading> {
  const limit = query.limit ?? DEFAULT_AUDIT_READ_LIMIT;
  const fetched = await fetch(limit + 1);
  const hasBefore = fetched.newestFirst.length > limit;
  const reading = verifyChain(seal, {
    entries: [...fetched.newestFirst].reverse(),
    hasBefore,
    fromStart: !hasBefore && fetched.startsAtOne,
    head: fetched.head,
    floor,
  });
  return { records: selectRecords(reading.records, query), problems: reading.problems };
}
