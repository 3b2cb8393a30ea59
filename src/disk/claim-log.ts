import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, openSync, writeSync } from 'node:fs';
import type { Clock } from '../model/clock.js';
import {
  createGeneration,
  generationFile,
  LOG_FLAGS,
  newestGeneration,
  removeGeneration,
  writeWhole,
} from './claim-generations.js';
import { type ClaimRecord, recordLine } from './claim-records.js';
import { ClaimReplay, type Waiting } from './claim-replay.js';

export interface ClaimLogOptions {
  /** A generation past this many bytes is sealed and the next begun with its live claims alone. Default 4 MiB. */
  rotateAtBytes?: number;
}

/** What `claim` hands out: 24 hex digits. */
const TOKEN = /^[0-9a-f]{24}$/;
const NAME = /^[0-9a-f]{1,128}$/;

/**
 * Leased claims on names, shared by the processes of one host through one
 * append-only file: a claim is a line written with O_APPEND, and who holds a
 * name is decided by the lines' order in the file, which every process reads
 * alike (`ClaimState`). The claims, renewals and releases asked for in one
 * turn of the event loop go out in one write, and one read of what every
 * process appended since decides them all: a few system calls a batch
 * rather than a file made, written, closed and removed for each claim.
 * Nothing is synced: a claim that a power cut loses was never answered for
 * (whoever marks the work done syncs that mark elsewhere).
 *
 * The file grows, so it has generations (`claims-<n>.log`). Past
 * `rotateAtBytes`, a process appends a seal; every record after the first
 * seal counts for nothing (its writer finds it so when it reads, and writes
 * it again in the next generation), and the next generation begins with the
 * claims still held at the seal, written by whoever gets there first (a
 * link, which only one can make). A process that starts reads the newest
 * generation whole: that is its recovery.
 */
export class ClaimLog {
  private readonly queue: Waiting[] = [];
  private scheduled = false;
  private generation = -1;
  private descriptor: number | undefined;
  /** The open generation's file: its name may come to hold a tombstone instead. */
  private inode = -1;
  private replay = new ClaimReplay();
  private readonly rotateAtBytes: number;

  constructor(
    private readonly directory: string,
    private readonly clock: Pick<Clock, 'now'>,
    options: ClaimLogOptions = {},
  ) {
    this.rotateAtBytes = options.rotateAtBytes ?? 4 * 1024 * 1024;
  }

  /** Takes `name` for `leaseMs`: its new token, or undefined while another holds it. */
  async claim(name: string, leaseMs: number): Promise<string | undefined> {
    const token = randomBytes(12).toString('hex');
    return (await this.ask('c', name, token, leaseMs)) ? token : undefined;
  }

  /** Extends `token`'s hold on `name` to `leaseMs` from now; false when it no longer holds it. */
  renew(name: string, token: string, leaseMs: number): Promise<boolean> {
    // No token of this log looks otherwise, and a line that cannot be read back would never be decided.
    if (!TOKEN.test(token)) return Promise.resolve(false);
    return this.ask('r', name, token, leaseMs);
  }

  /** Frees `name` if `token` holds it. */
  async release(name: string, token: string): Promise<void> {
    if (TOKEN.test(token)) await this.ask('x', name, token, 0);
  }

  /** How many claims read so far have lapsed (their holders stopped without releasing them). */
  lapsed(): number {
    const now = this.clock.now();
    let count = 0;
    for (const holder of this.replay.state.holders.values()) if (holder.expiresAt <= now) count += 1;
    return count;
  }

  private ask(kind: Waiting['kind'], name: string, token: string, leaseMs: number): Promise<boolean> {
    if (!NAME.test(name)) return Promise.reject(new TypeError('A claim log names in hex digits only.'));
    return new Promise((settle, fail) => {
      this.queue.push({ kind, name, token, leaseMs, settle, fail });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => this.flush());
    });
  }

  /** Writes the waiting records in one append, then reads the file to decide them. */
  private flush(): void {
    this.scheduled = false;
    const asked = this.queue.splice(0);
    try {
      this.open();
      let batch = asked;
      while (batch.length) {
        // Expected only now, after any replay of the file: an older record of a token is never taken for this one.
        for (const item of batch) this.replay.expect(item);
        const failure = this.append(batch);
        const voided = this.replay.readNew(this.descriptor as number);
        if (this.replay.state.sealedAt !== undefined) this.advance();
        if (failure !== undefined) throw failure;
        batch = voided;
      }
      if (this.replay.offset > this.rotateAtBytes) this.seal();
    } catch (error) {
      // Settling twice does nothing: only what was not decided fails.
      for (const item of asked) item.fail(error);
      this.failAll(error);
    }
    this.close();
  }

  /** One write of every record of `batch`, stamped now; the failure, if the disk would not take it all. */
  private append(batch: Waiting[]): unknown {
    const at = this.clock.now();
    const text = batch
      .map(({ kind, name, token, leaseMs }) =>
        recordLine(kind === 'x' ? { kind, name, token } : { kind, name, token, at, expiresAt: at + leaseMs }),
      )
      .join('');
    try {
      writeWhole(this.descriptor as number, text);
      return undefined;
    } catch (error) {
      // Part of it may have landed: the read that follows decides what did, the rest fails.
      return error;
    }
  }

  /** Appends a seal, so this generation ends and the next begins. */
  private seal(): void {
    const record: ClaimRecord = { kind: 's', at: this.clock.now() };
    writeSync(this.descriptor as number, recordLine(record), null, 'latin1');
    this.replay.readNew(this.descriptor as number);
    if (this.replay.state.sealedAt !== undefined) this.advance();
  }

  /** Opens the newest generation and reads it whole, unless one is open already. */
  private open(): void {
    if (this.descriptor !== undefined) return;
    if (this.generation >= 0) {
      try {
        const descriptor = openSync(generationFile(this.directory, this.generation), LOG_FLAGS, 0o600);
        const stat = fstatSync(descriptor);
        // A tombstone can take a freed inode's number, never this much of a generation's length.
        if (stat.ino === this.inode && stat.size >= this.replay.offset) {
          this.descriptor = descriptor;
          return;
        }
        closeSync(descriptor);
      } catch {
        // Gone: read the newest afresh.
      }
      // Emptied (two generations were begun since): read the newest afresh.
    }
    if (newestGeneration(this.directory) < 0) createGeneration(this.directory, 0, '');
    this.begin(newestGeneration(this.directory));
  }

  /**
   * Opens `generation` and replays it from its first byte, and every later
   * one it was sealed for. One gone already was passed by two others since:
   * the newest holds what it held.
   */
  private begin(generation: number): void {
    if (this.descriptor !== undefined) closeSync(this.descriptor);
    this.descriptor = undefined;
    this.replay = this.replay.fresh();
    try {
      this.descriptor = openSync(generationFile(this.directory, generation), LOG_FLAGS, 0o600);
      this.generation = generation;
      this.inode = fstatSync(this.descriptor).ino;
    } catch (error) {
      const newest = newestGeneration(this.directory);
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || newest <= generation) throw error;
      this.begin(newest);
      return;
    }
    this.replay.readNew(this.descriptor as number);
    if (this.replay.state.sealedAt !== undefined) this.advance();
  }

  /**
   * Past a seal: the next generation, made with the claims held at the seal
   * if nobody made it yet, or a later one others began meanwhile. The
   * generation two back is emptied (a process may still be reading the one
   * before this).
   */
  private advance(): void {
    const next = this.generation + 1;
    const newest = newestGeneration(this.directory);
    if (newest > next) {
      this.begin(newest);
      return;
    }
    createGeneration(this.directory, next, this.replay.state.snapshot());
    removeGeneration(this.directory, this.generation - 2);
    this.begin(next);
  }

  private failAll(error: unknown): void {
    this.replay.failAll(error);
    // Read afresh next time: what this process read may stop short of what it wrote.
    this.generation = -1;
  }

  /** Closes the descriptor after each batch: a store holds none between calls (nothing closes a store). */
  private close(): void {
    if (this.descriptor !== undefined) closeSync(this.descriptor);
    this.descriptor = undefined;
  }
}
