import type { ClaimOutcome, DedupeStore } from '../store/dedupe-store.js';

/**
 * A coordinator is also every worker's dedupe store: it answers each call
 * with the dedupe store of its own kind (memory for one process, Redis for
 * many), so the records live with the backend and the coordinator only
 * decides which one.
 */
export abstract class ForwardedDedupe implements DedupeStore {
  protected abstract readonly records: DedupeStore;

  claim(key: string, leaseMs: number): Promise<ClaimOutcome> {
    return this.records.claim(key, leaseMs);
  }

  renew(key: string, token: string, leaseMs: number): Promise<boolean> {
    return this.records.renew(key, token, leaseMs);
  }

  complete(key: string, token: string, ttlMs: number): Promise<void> {
    return this.records.complete(key, token, ttlMs);
  }

  release(key: string, token: string): Promise<void> {
    return this.records.release(key, token);
  }

  markOnce(key: string, ttlMs: number): Promise<boolean> {
    return this.records.markOnce(key, ttlMs);
  }
}
