import { type AuditEnvelope, AuditHead, type AuditSeal } from '../audit/audit-chain.js';
import { type AuditQuery, type AuditReading, AuditRecord, type AuditTrail } from '../audit/audit-trail.js';
import { readChainWindow } from '../audit/chain-window.js';
import type { RedisHandle } from './redis-handle.js';

/** How many records a tenant's stream keeps, about (MAXLEN ~): the oldest go first. */
export const DEFAULT_AUDIT_STREAM_LENGTH = 100_000;

/** Appends only if the head is still the one the envelope was chained to: two workers never fork the chain. */
const APPEND_AFTER_HEAD = `
local head = redis.call('GET', KEYS[2])
if (head or '') ~= ARGV[1] then return 0 end
redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[4], '*', 'r', ARGV[2])
redis.call('SET', KEYS[2], ARGV[3])
return 1`;

/** Appends that lose the race to another worker try again, this many times at most. */
const MAX_APPEND_TRIES = 50;

/**
 * One tenant's audit trail as a capped Redis stream, `<tenant prefix>:audit:trail`,
 * sealed into a chain (`AuditSeal`): each record carries its position, the
 * MAC of the one before and its own, and `<tenant prefix>:audit:head` holds
 * the last link, MACed. A writer to Redis without TOOLSTEPS_ENCRYPTION_KEY
 * can still delete the stream, but what it alters, forges, deletes from the
 * middle or cuts from the end is reported by `verify` (and never returned
 * by `read`). XADD with `MAXLEN ~` trims the oldest records in whole nodes.
 */
export class RedisAuditTrail implements AuditTrail {
  readonly key: string;
  readonly headKey: string;
  /** The highest position this process appended: a trail that ends below it was cut (even with its head put back). */
  private floor = 0;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly coordinator: RedisHandle,
    private readonly seal: AuditSeal,
    private readonly maxLength: number = DEFAULT_AUDIT_STREAM_LENGTH,
  ) {
    this.key = coordinator.key('audit', 'trail');
    this.headKey = coordinator.key('audit', 'head');
  }

  async append(record: AuditRecord): Promise<void> {
    const checked = AuditRecord.parse(record);
    // This process's appends go one after another: only another worker's can race one.
    const appended = this.queue.then(() => this.appendAfterHead(checked));
    this.queue = appended.catch(() => undefined);
    return appended;
  }

  private async appendAfterHead(checked: AuditRecord): Promise<void> {
    const { client } = this.coordinator;
    for (let tries = 0; tries < MAX_APPEND_TRIES; tries += 1) {
      const current = ((await client.get(this.headKey)) as string | null) ?? '';
      const envelope = this.seal.seal(checked, lastLink(current));
      const head = JSON.stringify(this.seal.head(envelope));
      const args = [current, JSON.stringify(envelope), head, this.maxLength];
      if (Number(await client.call('EVAL', APPEND_AFTER_HEAD, 2, this.key, this.headKey, ...args)) === 1) {
        this.floor = Math.max(this.floor, envelope.n);
        return;
      }
    }
    throw new Error('the audit trail kept changing under this append');
  }

  async read(query: AuditQuery = {}): Promise<AuditRecord[]> {
    return (await this.verify(query)).records;
  }

  async verify(query: AuditQuery = {}): Promise<AuditReading> {
    const { client } = this.coordinator;
    return readChainWindow(this.seal, this.floor, query, async (count) => {
      const [entries, head, length] = await Promise.all([
        client.call('XREVRANGE', this.key, '+', '-', 'COUNT', count) as Promise<[string, string[]][]>,
        client.get(this.headKey) as Promise<string | null>,
        client.call('XLEN', this.key) as Promise<number>,
      ]);
      return {
        newestFirst: entries.map(([, fields]) => parseField(fields)),
        head: head === null ? undefined : parseJson(head),
        // `MAXLEN ~` trims whole nodes and never below the cap: a shorter stream lost nothing to it.
        startsAtOne: Number(length) < this.maxLength,
      };
    });
  }
}

/** The link a stored head names, when it parses (whether it verifies is `verify`'s to say). */
function lastLink(head: string): Pick<AuditEnvelope, 'n' | 'm'> | undefined {
  const parsed = AuditHead.safeParse(parseJson(head));
  return parsed.success ? { n: parsed.data.n, m: parsed.data.m } : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function parseField(fields: string[]): unknown {
  const index = fields.indexOf('r');
  return index >= 0 ? parseJson(fields[index + 1] ?? '') : undefined;
}
