import { closeSync, promises as fs, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { isMissingFile } from '../../disk/atomic-write.js';
import { GroupCommitLog } from '../../disk/group-commit-log.js';
import type { Clock } from '../../model/clock.js';

/** One mark: a key's SHA-256 and when the mark expires (epoch ms). */
const MARK = /^([0-9a-f]{64}) (\d+)$/;
const JOURNAL = /^done-\d{4}-\d{2}-\d{2}\.log$/;
const DAY_MS = 24 * 60 * 60_000;
const NEWLINE = 0x0a;

/**
 * The done marks of a file dedupe store, for every process that shares its
 * directory: one append-only journal per day (`done-YYYY-MM-DD.log`, by the
 * time of the append), each mark a line `<sha256> <expiresAt>`. A mark is
 * synced before `mark` resolves, together with every other mark of the
 * moment (group commit, `GroupCommitLog`), so what a 200 promised survives a
 * power cut at the cost of one sync per batch rather than per event.
 *
 * Each process keeps the unexpired marks in memory: it reads every journal
 * once, then before each `isDone` reads what any process appended to the
 * recent days' journals since its last look, up to the last whole line (an
 * append still being written is read at the next look). The look is a stat
 * and, when the file grew, one read, both synchronous: on a local file they
 * take microseconds, less than the promise forms' thread pool hops. Each
 * mark is written as a line of its own, with a newline before and after, so
 * a mark a power cut left half written spoils no other.
 */
export class DoneJournal {
  private readonly log = new GroupCommitLog();
  /** Unexpired marks by key hash: when each expires. */
  private readonly marks = new Map<string, number>();
  /** How far each journal has been read (bytes): the first byte after its last whole line. */
  private readonly offsets = new Map<string, number>();
  private loaded: Promise<void> | undefined;
  /** When the journals were last looked at, so every day's since is read. */
  private lookedAt = 0;
  /** Journal paths by day number: a look names two of them. */
  private readonly names = new Map<number, string>();

  constructor(
    private readonly directory: string,
    private readonly clock: Pick<Clock, 'now'>,
  ) {}

  /** Whether the event of key hash `name` is marked done, by this process or any other sharing the directory. */
  async isDone(name: string): Promise<boolean> {
    await this.load();
    this.catchUp();
    return (this.marks.get(name) ?? 0) > this.clock.now();
  }

  /** Marks `name` done until `expiresAt`; resolves once the mark is on disk. */
  async mark(name: string, expiresAt: number): Promise<void> {
    await this.log.append(this.fileOf(this.clock.now()), `\n${name} ${expiresAt}\n`);
    this.note(name, expiresAt);
  }

  /** Forgets expired marks, and deletes each journal of an earlier day whose marks have all expired. */
  async prune(): Promise<void> {
    const now = this.clock.now();
    for (const [name, expiresAt] of this.marks) if (expiresAt <= now) this.marks.delete(name);
    // Today's and yesterday's stay: a process may be appending to either.
    const recent = new Set([this.fileOf(now), this.fileOf(now - DAY_MS)]);
    for (const file of await this.journals()) {
      if (recent.has(file)) continue;
      const text = await fs.readFile(file, 'latin1').catch(() => '');
      const last = text
        .split('\n')
        .reduce((latest, line) => Math.max(latest, Number(MARK.exec(line)?.[2] ?? 0)), 0);
      if (last > now) continue;
      await fs.rm(file, { force: true });
      this.offsets.delete(file);
    }
  }

  private fileOf(time: number): string {
    const day = Math.floor(time / DAY_MS);
    let name = this.names.get(day);
    if (name === undefined) {
      if (this.names.size > 8) this.names.clear();
      name = path.join(this.directory, `done-${new Date(time).toISOString().slice(0, 10)}.log`);
      this.names.set(day, name);
    }
    return name;
  }

  private async journals(): Promise<string[]> {
    try {
      const names = await fs.readdir(this.directory);
      return names.filter((name) => JOURNAL.test(name)).map((name) => path.join(this.directory, name));
    } catch (error) {
      if (isMissingFile(error)) return [];
      throw error;
    }
  }

  /** Reads every journal once; a failed read is tried again by the next call. */
  private load(): Promise<void> {
    this.loaded ??= (async () => {
      this.lookedAt = this.clock.now();
      for (const file of await this.journals()) {
        const bytes = await fs.readFile(file).catch((error: unknown) => {
          if (isMissingFile(error)) return Buffer.alloc(0);
          throw error;
        });
        this.take(file, bytes, 0);
      }
    })().catch((error: unknown) => {
      this.loaded = undefined;
      throw error;
    });
    return this.loaded;
  }

  /** Reads what was appended to each day's journal since the last look (usually one, two around midnight). */
  private catchUp(): void {
    const now = this.clock.now();
    const first = Math.min(this.lookedAt, now) - DAY_MS;
    this.lookedAt = now;
    const days = new Set<string>();
    for (let time = first; time < now + DAY_MS; time += DAY_MS) days.add(this.fileOf(Math.min(time, now)));
    for (const file of days) this.readNew(file);
  }

  private readNew(file: string): void {
    const size = statSync(file, { throwIfNoEntry: false })?.size ?? 0;
    // A journal pruned and begun again is smaller than what was read of it: read it from the start.
    const from = size < (this.offsets.get(file) ?? 0) ? 0 : (this.offsets.get(file) ?? 0);
    if (size <= from) return;
    const bytes = Buffer.alloc(size - from);
    // Opened for each read, never kept: a store holds no descriptor between calls (nothing closes a store).
    const descriptor = openSync(file, 'r');
    try {
      const read = readSync(descriptor, bytes, 0, bytes.length, from);
      this.take(file, bytes.subarray(0, read), from);
    } finally {
      closeSync(descriptor);
    }
  }

  /** Notes the marks of the whole lines in `bytes` (read from `from`), and where the next read starts. */
  private take(file: string, bytes: Buffer, from: number): void {
    const end = bytes.lastIndexOf(NEWLINE);
    if (end < 0) return;
    this.offsets.set(file, from + end + 1);
    for (const line of bytes.toString('latin1', 0, end).split('\n')) {
      const match = MARK.exec(line);
      if (match) this.note(match[1] as string, Number(match[2]));
    }
  }

  private note(name: string, expiresAt: number): void {
    if (expiresAt > this.clock.now() && expiresAt > (this.marks.get(name) ?? 0))
      this.marks.set(name, expiresAt);
  }
}
