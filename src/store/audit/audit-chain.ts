import * as z from 'zod';
import type { SecretBox } from '../sealed/secret-box.js';
import { AuditRecord } from './audit-trail.js';

/**
 * One record as a shared store keeps it: the record, its place in the
 * tenant's chain (`n`, from 1), the MAC of the record before it (`p`, empty
 * for the first), and its own MAC (`m`) under key `k`. The MAC covers the
 * tenant, `n`, `p` and the record, so a record cannot be altered, forged,
 * moved to another tenant or taken out of the middle without a key.
 */
export const AuditEnvelope = z
  .object({ r: z.unknown(), n: z.int().min(1), p: z.string(), k: z.string(), m: z.string() })
  .strict();
export type AuditEnvelope = z.infer<typeof AuditEnvelope>;

/** The chain's last link, MACed on its own (`h`): how many records there are, so records cut from the end are missed. */
export const AuditHead = z
  .object({ n: z.int().min(0), m: z.string(), k: z.string(), h: z.string() })
  .strict();
export type AuditHead = z.infer<typeof AuditHead>;

/** The record with its keys in one order: Postgres's jsonb does not keep the order they were written in. */
export function canonicalJson(record: AuditRecord): string {
  const entries = Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(Object.fromEntries(entries));
}

/**
 * Seals one tenant's audit records into a chain with keys derived from the
 * master key (TOOLSTEPS_ENCRYPTION_KEY), not the tenant's data key: the
 * erasure of a tenant is itself recorded after its data key is destroyed.
 */
export class AuditSeal {
  constructor(
    private readonly box: SecretBox,
    private readonly tenant: string,
  ) {}

  private text(n: number, previous: string, record: string): string {
    return `${this.tenant}\0${n}\0${previous}\0${record}`;
  }

  /** The envelope of `record` after the link `after` (none: the first). */
  seal(record: AuditRecord, after: { n: number; m: string } | undefined): AuditEnvelope {
    const n = (after?.n ?? 0) + 1;
    const p = after?.m ?? '';
    const { kid, mac } = this.box.mac(this.text(n, p, canonicalJson(record)), 'audit-record');
    return { r: record, n, p, k: kid, m: mac };
  }

  /** The record an envelope holds, or undefined when it was not sealed with our keys as it stands. */
  open(envelope: AuditEnvelope): AuditRecord | undefined {
    const record = AuditRecord.safeParse(envelope.r);
    if (!record.success) return undefined;
    const text = this.text(envelope.n, envelope.p, canonicalJson(record.data));
    return this.box.checkMac(envelope.k, text, 'audit-record', envelope.m) ? record.data : undefined;
  }

  /** The signed head naming `last` as the trail's newest link: what tells a trail cut at its end. */
  head(last: { n: number; m: string }): AuditHead {
    const { kid, mac } = this.box.mac(`${this.tenant}\0${last.n}\0${last.m}`, 'audit-head');
    return { n: last.n, m: last.m, k: kid, h: mac };
  }

  /** Whether a stored head was signed with our keys for this tenant, as it stands. */
  headHolds(head: AuditHead): boolean {
    return this.box.checkMac(head.k, `${this.tenant}\0${head.n}\0${head.m}`, 'audit-head', head.h);
  }
}
