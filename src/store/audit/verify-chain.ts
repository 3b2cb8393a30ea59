import { AuditEnvelope, AuditHead, type AuditSeal } from './audit-chain.js';
import type { AuditProblem, AuditReading, AuditRecord } from './audit-trail.js';

/** What a backend read of its chain, oldest first, as stored (nothing parsed or trusted yet). */
export interface StoredChain {
  entries: unknown[];
  /** entries[0] is the record just before the window: read only to check the link into it. */
  hasBefore: boolean;
  /** Nothing older than entries[0] can be gone for a good reason (no cap trimmed it): the chain must start at 1. */
  fromStart: boolean;
  /** The stored head, undefined when there is none. */
  head: unknown;
  /** The highest position this process has written or read: a chain that ends below it was cut. */
  floor: number;
}

type Link = { n: number; m: string };

/** Whether `envelope` follows `previous` in the chain; a problem when it does not. */
function linkProblem(
  previous: Link | undefined,
  envelope: AuditEnvelope,
  fromStart: boolean,
): AuditProblem | undefined {
  if (!previous) {
    if (!fromStart || envelope.n === 1) return undefined;
    return { kind: 'missing', n: 1, message: `records 1 to ${envelope.n - 1}, the oldest, are missing` };
  }
  if (envelope.n > previous.n + 1) {
    return {
      kind: 'missing',
      n: previous.n + 1,
      message: `records ${previous.n + 1} to ${envelope.n - 1} are missing (deleted from the middle)`,
    };
  }
  if (envelope.n !== previous.n + 1 || envelope.p !== previous.m) {
    return {
      kind: 'tampered',
      n: envelope.n,
      message: `record ${envelope.n} does not follow record ${previous.n}`,
    };
  }
  return undefined;
}

/** What the head says that the records do not: records cut from the end, or a head forged or restored. */
function headProblem(seal: AuditSeal, stored: unknown, last: Link | undefined): AuditProblem | undefined {
  if (stored === undefined) {
    return last
      ? { kind: 'head', message: "the trail's head is missing: records may have been cut from the end" }
      : undefined;
  }
  const head = AuditHead.safeParse(stored);
  if (!head.success || !seal.headHolds(head.data)) {
    return { kind: 'head', message: "the trail's head does not verify: it was altered or forged" };
  }
  const have = last?.n ?? 0;
  if (head.data.n > have) {
    return {
      kind: 'missing',
      n: have + 1,
      message: `records ${have + 1} to ${head.data.n}, the newest, are missing`,
    };
  }
  if (head.data.n < have || head.data.m !== last?.m) {
    return {
      kind: 'head',
      message: `the trail's head names record ${head.data.n}, not the last one (${have})`,
    };
  }
  return undefined;
}

/**
 * Checks a stored chain: each record's MAC (altered or forged records are
 * reported and never returned), each link to the record before (records
 * deleted from the middle), the start (records deleted from the beginning,
 * where no cap trims), and the sealed head and this process's floor
 * (records cut from the end).
 */
export function verifyChain(seal: AuditSeal, chain: StoredChain): AuditReading {
  const records: AuditRecord[] = [];
  const problems: AuditProblem[] = [];
  let previous: Link | undefined;
  // The last record that verified: what the head and the floor are held against (a forged tail is not the end).
  let lastGood: Link | undefined;
  chain.entries.forEach((entry, index) => {
    const parsed = AuditEnvelope.safeParse(entry);
    if (!parsed.success) {
      problems.push({
        kind: 'tampered',
        message: 'a stored record is not a sealed audit record (forged or altered)',
      });
      return;
    }
    const envelope = parsed.data;
    if (index > 0 || !chain.hasBefore) {
      const record = seal.open(envelope);
      if (record) {
        records.push(record);
        lastGood = { n: envelope.n, m: envelope.m };
      } else {
        problems.push({
          kind: 'tampered',
          n: envelope.n,
          message: `record ${envelope.n} does not verify: altered or forged`,
        });
      }
      const link = linkProblem(previous, envelope, chain.fromStart);
      if (link) problems.push(link);
    }
    previous = { n: envelope.n, m: envelope.m };
  });
  const head = headProblem(seal, chain.head, lastGood);
  if (head) problems.push(head);
  if ((lastGood?.n ?? 0) < chain.floor) {
    problems.push({
      kind: 'missing',
      n: (lastGood?.n ?? 0) + 1,
      message: `this process wrote record ${chain.floor}; the trail now ends at ${lastGood?.n ?? 0}`,
    });
  }
  return { records, problems };
}
