import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { isMissingFile, unlinkIfPresent, writeFileAtomic } from '../../disk/atomic-write.js';
import { createExclusive } from '../../disk/create-exclusive.js';
import { type Clock, systemClock } from '../../model/clock.js';
import type { ClaimOutcome, DedupeStore } from '../dedupe-store.js';
import { DoneJournal } from './done-journal.js';
import { defaultToolstepsHome } from './file-connection-store.js';

const Entry = z.object({
  state: z.enum(['claimed', 'done']),
  token: z.string(),
  expiresAt: z.number(),
});
type Entry = z.infer<typeof Entry>;

/** How often, at most, a claim sweeps out expired entries. */
const PRUNE_EVERY_MS = 10 * 60_000;

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

/**
 * Dedupe that survives a restart, shared by the processes of one host.
 * A claim is a small file per key under `<home>/triggers/dedupe`, named by
 * the key's SHA-256 so no provider text reaches a path, created with O_EXCL,
 * so two processes on one host never both hold an event; taking over an
 * expired claim is last-writer-wins, which is why many hosts need the Redis
 * store.
 *
 * A done mark goes to the journal (`DoneJournal`, under `journal/`), synced
 * with every other mark of the moment before `complete` resolves: a sync
 * per event, which each mark's own file took, capped `listen` at a few
 * hundred events a second. The claim's file is removed once its mark is in
 * the journal, and every claim looks in the journal before and after it
 * creates its file, so a claim made after the removal finds the mark.
 * Files written by earlier versions, `done` in the key's file, still count.
 */
export class FileDedupeStore implements DedupeStore {
  private readonly directory: string;
  private readonly journal: DoneJournal;
  private lastPrune = 0;
  private directoryMade: Promise<unknown> | undefined;

  constructor(
    home: string = defaultToolstepsHome(),
    private readonly clock: Clock = systemClock,
  ) {
    this.directory = path.join(home, 'triggers', 'dedupe');
    this.journal = new DoneJournal(path.join(this.directory, 'journal'), clock);
  }

  private nameOf(key: string): string {
    return createHash('sha256').update(key).digest('hex');
  }

  private fileOf(name: string): string {
    return path.join(this.directory, `${name}.json`);
  }

  /** The directory and its journal's, made once per store; `again` after they vanished under a running process. */
  private directories(again = false): Promise<unknown> {
    if (again || !this.directoryMade) {
      const made = fs.mkdir(path.join(this.directory, 'journal'), { recursive: true, mode: 0o700 });
      this.directoryMade = made.catch((error) => {
        this.directoryMade = undefined;
        throw error;
      });
    }
    return this.directoryMade;
  }

  /** Runs a write in the directories; a directory removed since they were made is made again, once. */
  private async inDirectories<T>(write: () => T | Promise<T>): Promise<T> {
    await this.directories();
    try {
      return await write();
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
      await this.directories(true);
      return write();
    }
  }

  private async read(file: string): Promise<Entry | undefined> {
    try {
      const parsed = Entry.safeParse(JSON.parse(await fs.readFile(file, 'utf8')));
      // An unreadable entry (a crash mid-write cannot make one, a hand edit can) counts as absent.
      return parsed.success ? parsed.data : undefined;
    } catch (error) {
      if (isMissingFile(error) || error instanceof SyntaxError) return undefined;
      throw error;
    }
  }

  async claim(key: string, leaseMs: number): Promise<ClaimOutcome> {
    await this.directories();
    await this.pruneNowAndThen();
    const name = this.nameOf(key);
    if (await this.journal.isDone(name)) return { status: 'done' };
    const file = this.fileOf(name);
    const token = randomBytes(12).toString('hex');
    const entry: Entry = { state: 'claimed', token, expiresAt: this.clock.now() + leaseMs };
    // A claim whose file could not be written leaves none behind (createExclusive). The promise form on
    // purpose: a file's creation waits for the filesystem's commit that a journal sync started, and made
    // synchronously it held the event loop for about a third of a millisecond per claim.
    if (!(await this.inDirectories(() => createExclusive(file, JSON.stringify(entry))))) {
      const existing = await this.read(file);
      if (existing && existing.expiresAt > this.clock.now()) {
        return { status: existing.state === 'done' ? 'done' : 'in_flight' };
      }
      // Claims need no sync: one a power cut lost was never answered for.
      await writeFileAtomic(file, JSON.stringify(entry), { sync: false });
    }
    // A holder that marked the event done and removed its claim between the look above and this claim wrote the mark first.
    if (await this.journal.isDone(name)) {
      await this.release(key, token);
      return { status: 'done' };
    }
    return { status: 'claimed', token };
  }

  /** Read-check-write: on one host a lapsed claim taken over in between is the race the class comment names. */
  async renew(key: string, token: string, leaseMs: number): Promise<boolean> {
    const file = this.fileOf(this.nameOf(key));
    const existing = await this.read(file);
    const now = this.clock.now();
    if (existing?.state !== 'claimed' || existing.token !== token || existing.expiresAt <= now) return false;
    await writeFileAtomic(file, JSON.stringify({ ...existing, expiresAt: now + leaseMs }), { sync: false });
    return true;
  }

  /** Resolves once the mark is in the synced journal: what a 200 promises survives a power cut. */
  async complete(key: string, _token: string, ttlMs: number): Promise<void> {
    const name = this.nameOf(key);
    await this.inDirectories(() => this.journal.mark(name, this.clock.now() + ttlMs));
    // Whoever claims it next finds the mark: every claim looks in the journal after making its file.
    await unlinkIfPresent(this.fileOf(name));
  }

  async release(key: string, token: string): Promise<void> {
    const file = this.fileOf(this.nameOf(key));
    const existing = await this.read(file);
    if (existing?.token === token && existing.state === 'claimed') await fs.rm(file, { force: true });
  }

  async markOnce(key: string, ttlMs: number): Promise<boolean> {
    const claimed = await this.claim(key, ttlMs);
    if (claimed.status !== 'claimed') return false;
    await this.complete(key, claimed.token, ttlMs);
    return true;
  }

  /** Deletes every expired claim (and every journal whose marks all expired); returns how many claims. */
  async prune(): Promise<number> {
    await this.journal.prune();
    let names: string[];
    try {
      names = await fs.readdir(this.directory);
    } catch (error) {
      if (isMissingFile(error)) return 0;
      throw error;
    }
    let removed = 0;
    for (const name of names.filter((item) => item.endsWith('.json'))) {
      const file = path.join(this.directory, name);
      const entry = await this.read(file);
      if (!entry || entry.expiresAt <= this.clock.now()) {
        await fs.rm(file, { force: true });
        removed += 1;
      }
    }
    return removed;
  }

  private async pruneNowAndThen(): Promise<void> {
    if (this.clock.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = this.clock.now();
    await this.prune();
  }
}
