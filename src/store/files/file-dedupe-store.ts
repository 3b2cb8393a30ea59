import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { isMissingFile } from '../../disk/atomic-write.js';
import { ClaimLog } from '../../disk/claim-log.js';
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
 * Claims go to an append-only claim log (`ClaimLog`, `claims-<n>.log` under
 * `<home>/triggers/dedupe/claims`), keyed by the key's SHA-256 so no
 * provider text reaches a file: the claims of a moment go out in one write
 * and are decided by one read of what every process appended, so two
 * processes on one host never both hold an event. Many hosts need the Redis
 * store.
 *
 * A done mark goes to the done journal (`DoneJournal`, under `journal`), synced
 * with every other mark of the moment before `complete` resolves (one sync
 * per batch), and then the claim is released; every claim looks in the
 * journal before and after it is decided, so a claim decided after that
 * release finds the mark. What an earlier version left, a small file per
 * key (`<sha256>.json`), still counts: read once, when the store is first used.
 */
export class FileDedupeStore implements DedupeStore {
  private readonly directory: string;
  private readonly journal: DoneJournal;
  private readonly claims: ClaimLog;
  private lastPrune = 0;
  private directoryMade: Promise<unknown> | undefined;
  private earlier: Promise<Map<string, Entry>> | undefined;

  constructor(
    home: string = defaultToolstepsHome(),
    private readonly clock: Clock = systemClock,
  ) {
    this.directory = path.join(home, 'triggers', 'dedupe');
    this.journal = new DoneJournal(path.join(this.directory, 'journal'), clock);
    this.claims = new ClaimLog(path.join(this.directory, 'claims'), clock);
  }

  private nameOf(key: string): string {
    return createHash('sha256').update(key).digest('hex');
  }

  /** The directory and its journal's, made once per store; `again` after they vanished under a running process. */
  private directories(again = false): Promise<unknown> {
    if (again || !this.directoryMade) {
      const made = Promise.all(
        ['journal', 'claims'].map((folder) =>
          fs.mkdir(path.join(this.directory, folder), { recursive: true, mode: 0o700 }),
        ),
      );
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

  /** The entries an earlier version wrote, one file per key, read once. */
  private earlierEntries(): Promise<Map<string, Entry>> {
    this.earlier ??= readEarlierEntries(this.directory).catch((error: unknown) => {
      this.earlier = undefined;
      throw error;
    });
    return this.earlier;
  }

  async claim(key: string, leaseMs: number): Promise<ClaimOutcome> {
    await this.directories();
    await this.pruneNowAndThen();
    const name = this.nameOf(key);
    if (await this.journal.isDone(name)) return { status: 'done' };
    const earlier = (await this.earlierEntries()).get(name);
    if (earlier && earlier.expiresAt > this.clock.now()) {
      return { status: earlier.state === 'done' ? 'done' : 'in_flight' };
    }
    const token = await this.inDirectories(() => this.claims.claim(name, leaseMs));
    if (token === undefined) return { status: 'in_flight' };
    // A holder that marked the event done and released its claim before this claim was decided wrote the mark first.
    if (await this.journal.isDone(name)) {
      await this.claims.release(name, token);
      return { status: 'done' };
    }
    return { status: 'claimed', token };
  }

  renew(key: string, token: string, leaseMs: number): Promise<boolean> {
    return this.claims.renew(this.nameOf(key), token, leaseMs);
  }

  /** Resolves once the mark is in the synced journal: what a 200 promises survives a power cut. */
  async complete(key: string, token: string, ttlMs: number): Promise<void> {
    const name = this.nameOf(key);
    await this.inDirectories(() => this.journal.mark(name, this.clock.now() + ttlMs));
    // Whoever claims it next finds the mark: every claim looks in the journal after it is decided.
    await this.claims.release(name, token);
  }

  release(key: string, token: string): Promise<void> {
    return this.claims.release(this.nameOf(key), token);
  }

  async markOnce(key: string, ttlMs: number): Promise<boolean> {
    const claimed = await this.claim(key, ttlMs);
    if (claimed.status !== 'claimed') return false;
    await this.complete(key, claimed.token, ttlMs);
    return true;
  }

  /**
   * Forgets expired marks (deleting every journal whose marks all expired)
   * and an earlier version's expired files; returns how many claims lapsed
   * (their holders stopped without completing or releasing them).
   */
  async prune(): Promise<number> {
    await this.journal.prune();
    const earlier = await this.earlierEntries();
    let removed = 0;
    for (const [name, entry] of earlier) {
      if (entry.expiresAt > this.clock.now()) continue;
      await fs.rm(path.join(this.directory, `${name}.json`), { force: true });
      earlier.delete(name);
      removed += 1;
    }
    return removed + this.claims.lapsed();
  }

  private async pruneNowAndThen(): Promise<void> {
    if (this.clock.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = this.clock.now();
    await this.prune();
  }
}

/** Every `<sha256>.json` an earlier version wrote in `directory`, by key hash; an unreadable one counts as absent. */
async function readEarlierEntries(directory: string): Promise<Map<string, Entry>> {
  const entries = new Map<string, Entry>();
  let names: string[];
  try {
    names = await fs.readdir(directory);
  } catch (error) {
    if (isMissingFile(error)) return entries;
    throw error;
  }
  for (const file of names) {
    const name = /^([0-9a-f]{64})\.json$/.exec(file)?.[1];
    if (!name) continue;
    try {
      const parsed = Entry.safeParse(JSON.parse(await fs.readFile(path.join(directory, file), 'utf8')));
      if (parsed.success) entries.set(name, parsed.data);
    } catch (error) {
      if (!(isMissingFile(error) || error instanceof SyntaxError)) throw error;
    }
  }
  return entries;
}
