import { randomBytes } from 'node:crypto';
import { type Clock, systemClock } from '../../model/clock.js';
import type { ClaimOutcome, DedupeStore } from '../dedupe-store.js';

interface Entry {
  state: 'claimed' | 'done';
  token: string;
  expiresAt: number;
}

/** Dedupe in one process's memory: for tests and single-process embedders that restart cleanly. */
export class MemoryDedupeStore implements DedupeStore {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly clock: Clock = systemClock) {}

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= this.clock.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  async claim(key: string, leaseMs: number): Promise<ClaimOutcome> {
    const entry = this.live(key);
    if (entry) return { status: entry.state === 'done' ? 'done' : 'in_flight' };
    const token = randomBytes(12).toString('hex');
    this.entries.set(key, { state: 'claimed', token, expiresAt: this.clock.now() + leaseMs });
    return { status: 'claimed', token };
  }

  async renew(key: string, token: string, leaseMs: number): Promise<boolean> {
    const entry = this.live(key);
    if (entry?.state !== 'claimed' || entry.token !== token) return false;
    entry.expiresAt = this.clock.now() + leaseMs;
    return true;
  }

  async complete(key: string, token: string, ttlMs: number): Promise<void> {
    this.entries.set(key, { state: 'done', token, expiresAt: this.clock.now() + ttlMs });
  }

  async release(key: string, token: string): Promise<void> {
    if (this.entries.get(key)?.token === token) this.entries.delete(key);
  }

  async markOnce(key: string, ttlMs: number): Promise<boolean> {
    const claimed = await this.claim(key, ttlMs);
    if (claimed.status !== 'claimed') return false;
    await this.complete(key, claimed.token, ttlMs);
    return true;
  }
}
