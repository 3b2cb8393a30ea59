/** Who holds a name in a claim log, and until when (epoch ms). */
export interface ClaimHolder {
  token: string;
  expiresAt: number;
}

/**
 * One line of a claim log. `at` is when its writer stamped it, just before
 * the write, so every reader judges a lease against the same time:
 * a claim (`c`) takes a name whose holder's lease ended by then, a renewal
 * (`r`) extends a lease that had not, a release (`x`) frees a name its
 * token holds, and a seal (`s`) ends the file's generation.
 */
export type ClaimRecord =
  | { kind: 'c' | 'r'; name: string; token: string; at: number; expiresAt: number }
  | { kind: 'x'; name: string; token: string }
  | { kind: 's'; at: number };

/**
 * A record's line, framed by newlines and closed by ` $`: a record a kill
 * or a full disk cut short never reads as a record, and spoils no other
 * (the next one starts on a line of its own).
 */
export function recordLine(record: ClaimRecord): string {
  switch (record.kind) {
    case 's':
      return `\ns ${record.at} $\n`;
    case 'x':
      return `\nx ${record.name} ${record.token} $\n`;
    default:
      return `\n${record.kind} ${record.name} ${record.token} ${record.at} ${record.expiresAt} $\n`;
  }
}

const HEX = '[0-9a-f]{1,128}';
const LEASE = new RegExp(`^([cr]) (${HEX}) (${HEX}) (\\d{1,16}) (\\d{1,16}) \\$$`);
const RELEASE = new RegExp(`^x (${HEX}) (${HEX}) \\$$`);
const SEAL = /^s (\d{1,16}) \$$/;

/** The record a line holds, or undefined for an empty, cut or foreign line. */
export function parseRecord(line: string): ClaimRecord | undefined {
  const lease = LEASE.exec(line);
  if (lease) {
    const [, kind, name, token, at, expiresAt] = lease as unknown as [
      string,
      'c' | 'r',
      string,
      string,
      string,
      string,
    ];
    return { kind, name, token, at: Number(at), expiresAt: Number(expiresAt) };
  }
  const release = RELEASE.exec(line);
  if (release) return { kind: 'x', name: release[1] as string, token: release[2] as string };
  const seal = SEAL.exec(line);
  return seal ? { kind: 's', at: Number(seal[1]) } : undefined;
}

/**
 * The holders a claim log's records leave, replayed in the file's order.
 * Every process replays the same bytes by the same rules, with the times
 * the records carry rather than its own clock, so all agree on who holds
 * what at each point of the file, and on whether their own record took.
 */
export class ClaimState {
  readonly holders = new Map<string, ClaimHolder>();
  /** When the generation was sealed, once a seal was read: records after it count for nothing. */
  sealedAt: number | undefined;

  /** Applies one record; true when it took (a claim won, a renewal extended, a release freed). */
  apply(record: ClaimRecord): boolean {
    if (record.kind === 's') {
      this.sealedAt = record.at;
      return true;
    }
    const holder = this.holders.get(record.name);
    if (record.kind === 'x') {
      if (holder?.token !== record.token) return false;
      this.holders.delete(record.name);
      return true;
    }
    if (record.kind === 'r') {
      if (holder?.token !== record.token || holder.expiresAt <= record.at) return false;
      holder.expiresAt = record.expiresAt;
      return true;
    }
    // A claim repeated by its own holder (written again in the next generation) still holds.
    if (holder && holder.token !== record.token && holder.expiresAt > record.at) return false;
    this.holders.set(record.name, { token: record.token, expiresAt: record.expiresAt });
    return true;
  }

  /**
   * The next generation's first lines: every holder whose lease outlasts the
   * seal, as claims stamped 0 so they take an empty state. Every process
   * that replayed up to the seal writes the same bytes.
   */
  snapshot(): string {
    const sealedAt = this.sealedAt ?? 0;
    let text = '';
    for (const [name, holder] of this.holders) {
      if (holder.expiresAt > sealedAt) text += recordLine({ kind: 'c', name, ...holder, at: 0 });
    }
    return text;
  }
}
