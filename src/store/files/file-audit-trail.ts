import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { isMissingFile } from '../../disk/atomic-write.js';
import { type AuditQuery, AuditRecord, type AuditTrail, selectRecords } from '../audit/audit-trail.js';

/** The folder of a tenant's trail under its home, and the file in it. */
export const AUDIT_FOLDER = 'audit';
const AUDIT_FILE = 'trail.jsonl';

/** Appends from this process to one file, one after another (a torn-line check must not race an append). */
const queues = new Map<string, Promise<void>>();

/**
 * One tenant's audit trail as one append-only file of JSON lines,
 * `<tenant home>/audit/trail.jsonl`, mode 0600. Each append opens the file
 * with O_APPEND, writes one whole line in one write and fsyncs before it
 * resolves, so a record that was acknowledged survives a crash. A crash in
 * the middle of a write can leave a torn last line: reading skips it, and
 * the next append starts on a new line so the torn one never swallows it.
 */
export class FileAuditTrail implements AuditTrail {
  readonly file: string;

  constructor(home: string) {
    this.file = path.join(home, AUDIT_FOLDER, AUDIT_FILE);
  }

  async append(record: AuditRecord): Promise<void> {
    const line = `${JSON.stringify(AuditRecord.parse(record))}\n`;
    const previous = queues.get(this.file) ?? Promise.resolve();
    const next = previous.then(() => this.write(line));
    const settled = next.catch(() => undefined);
    queues.set(this.file, settled);
    void settled.then(() => {
      if (queues.get(this.file) === settled) queues.delete(this.file);
    });
    return next;
  }

  private async write(line: string): Promise<void> {
    await fs.mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const flags = constants.O_CREAT | constants.O_APPEND | constants.O_RDWR;
    const handle = await fs.open(this.file, flags, 0o600);
    try {
      const { size } = await handle.stat();
      let text = line;
      if (size > 0) {
        const last = Buffer.alloc(1);
        await handle.read(last, 0, 1, size - 1);
        // A torn last line (a crash mid-write) gets its line end, so this record stands alone.
        if (last[0] !== 0x0a) text = `\n${line}`;
      }
      await handle.write(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  async read(query?: AuditQuery): Promise<AuditRecord[]> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (error) {
      if (isMissingFile(error)) return [];
      throw error;
    }
    const records: AuditRecord[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      const parsed = AuditRecord.safeParse(parseJson(line));
      // A torn line (a crash mid-write) is not a record; every whole line is.
      if (parsed.success) records.push(parsed.data);
    }
    return selectRecords(records, query);
  }
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
