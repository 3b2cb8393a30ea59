import { fstatSync, readSync } from 'node:fs';
import { ClaimState, parseRecord } from './claim-records.js';

/** A record this process wrote (or is about to), waiting to be decided by its place in the file. */
export interface Waiting {
  kind: 'c' | 'r' | 'x';
  name: string;
  token: string;
  leaseMs: number;
  settle: (took: boolean) => void;
  fail: (error: unknown) => void;
}

const NEWLINE = 0x0a;
const READ_CHUNK = 64 * 1024;

/**
 * One process's reading of one generation of a claim log: the holders its
 * records leave so far, how far it has read, and which of this process's
 * own records it is still to meet (by kind and token: tokens are random).
 */
export class ClaimReplay {
  readonly state = new ClaimState();
  /** The first byte after the last whole line read. */
  offset = 0;

  constructor(private readonly waiting = new Map<string, Waiting[]>()) {}

  /** A reading of another generation from its first byte, still waiting for the same records. */
  fresh(): ClaimReplay {
    return new ClaimReplay(this.waiting);
  }

  /** Notes a record of this process's about to be written. */
  expect(item: Waiting): void {
    const key = item.kind + item.token;
    const list = this.waiting.get(key);
    if (list) list.push(item);
    else this.waiting.set(key, [item]);
  }

  /** Fails every record still waiting. */
  failAll(error: unknown): void {
    for (const list of this.waiting.values()) for (const item of list) item.fail(error);
    this.waiting.clear();
  }

  /** Replays what was appended since the last read, deciding this process's records; those past a seal come back. */
  readNew(descriptor: number): Waiting[] {
    const voided: Waiting[] = [];
    for (;;) {
      const size = fstatSync(descriptor).size;
      if (size <= this.offset) return voided;
      const bytes = Buffer.allocUnsafe(Math.min(size - this.offset, READ_CHUNK));
      const read = readSync(descriptor, bytes, 0, bytes.length, this.offset);
      const end = bytes.subarray(0, read).lastIndexOf(NEWLINE);
      if (end < 0) {
        // The end of a record another process is still writing (the file grows a page at a time): read it next time.
        if (read < READ_CHUNK) return voided;
        // A line longer than a chunk is nobody's record: step over it.
        this.offset += read;
        continue;
      }
      this.offset += end + 1;
      for (const line of bytes.toString('latin1', 0, end).split('\n')) this.take(line, voided);
    }
  }

  private take(line: string, voided: Waiting[]): void {
    const record = parseRecord(line);
    if (!record) return;
    const key = record.kind === 's' ? '' : record.kind + record.token;
    const mine = this.waiting.get(key);
    const item = mine?.shift();
    if (mine && !mine.length) this.waiting.delete(key);
    if (this.state.sealedAt !== undefined) {
      if (item) voided.push(item);
      return;
    }
    const took = this.state.apply(record);
    item?.settle(took);
  }
}
