import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { type Clock, systemClock } from '../../clock.js';
import { isMissingFile, writeFileAtomic } from '../../files/atomic-write.js';
import { createExclusive } from '../../files/create-exclusive.js';
import { defaultToolstepsHome } from '../connections/file-connection-store.js';
import type { ClaimOutcome, DedupeStore } from './dedupe-store.js';

const Entry = z.object({
  state: z.enum(['claimed', 'done']),
  token: z.string(),
  expiresAt: z.number(),
});
type Entry = z.infer<typeof Entry>;

/** How often, at most, a claim sweeps out expired entries. */
const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * Dedupe that survives a restart: one small file per key under
 * `<home>/triggers/dedupe`, named by the key's SHA-256 so no provider text
 * reaches a path. A fresh claim creates its file with O_EXCL, so two
 * processes on one host never both claim an event; taking over an expired
 * claim is last-writer-wins, which is why many hosts need the Redis store.
 */
export class FileDedupeStore implements DedupeStore {
  private readonly directory: string;
  private lastPrune = 0;

  constructor(
    home: string = defaultToolstepsHome(),
    private readonly clock: Clock = systemClock,
  ) {
    this.directory = path.join(home, 'triggers', 'dedupe');
  }

  private fileFor(key: string): string {
    return path.join(this.directory, `${createHash('sha256').update(key).digest('hex')}.json`);
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
    await fs.mkdir(this.directory, { recursive: true, mode: 0o700 });
    await this.pruneNowAndThen();
    const file = this.fileFor(key);
    const token = randomBytes(12).toString('hex');
    const entry: Entry = { state: 'claimed', token, expiresAt: this.clock.now() + leaseMs };
    // A claim whose file could not be written leaves none behind (createExclusive).
    if (await createExclusive(file, JSON.stringify(entry))) return { status: 'claimed', token };
    const existing = await this.read(file);
    if (existing && existing.expiresAt > this.clock.now()) {
      return { status: existing.state === 'done' ? 'done' : 'in_flight' };
    }
    await writeFileAtomic(file, JSON.stringify(entry));
    return { status: 'claimed', token };
  }

  /** Read-check-write: on one host a lapsed claim taken over in between is the race the class comment names. */
  async renew(key: string, token: string, leaseMs: number): Promise<boolean> {
    const file = this.fileFor(key);
    const existing = await this.read(file);
    const now = this.clock.now();
    if (existing?.state !== 'claimed' || existing.token !== token || existing.expiresAt <= now) return false;
    await writeFileAtomic(file, JSON.stringify({ ...existing, expiresAt: now + leaseMs }));
    return true;
  }

  async complete(key: string, token: string, ttlMs: number): Promise<void> {
    await fs.mkdir(this.directory, { recursive: true, mode: 0o700 });
    const entry: Entry = { state: 'done', token, expiresAt: this.clock.now() + ttlMs };
    await writeFileAtomic(this.fileFor(key), JSON.stringify(entry));
  }

  async release(key: string, token: string): Promise<void> {
    const file = this.fileFor(key);
    const existing = await this.read(file);
    if (existing?.token === token && existing.state === 'claimed') await fs.rm(file, { force: true });
  }

  async markOnce(key: string, ttlMs: number): Promise<boolean> {
    const claimed = await this.claim(key, ttlMs);
    if (claimed.status !== 'claimed') return false;
    await this.complete(key, claimed.token, ttlMs);
    return true;
  }

  /** Deletes every expired entry; returns how many. */
  async prune(): Promise<number> {
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
