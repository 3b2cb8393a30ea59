import type { ClaimOutcome, DedupeStore } from './dedupe-store.js';

export interface DonePendingOptions {
  /** How long `complete` waits for the mark to land before it answers and leaves it pending. Default 2 s. */
  confirmWithinMs?: number;
  /** Waits between tries of a pending mark, the last repeated. Default 250 ms doubling to 5 s. */
  retryDelaysMs?: readonly number[];
}

interface PendingMark {
  token: string;
  ttlMs: number;
  /** Real epoch ms after which the mark would have expired anyway, so trying stops. */
  until: number;
  landed: Promise<void>;
}

const DEFAULT_RETRY_DELAYS_MS = [250, 500, 1_000, 2_000, 5_000] as const;

const pause = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

/**
 * A dedupe store in front of another, for whoever marks events done after
 * starting them. An event that was started must never be released for a
 * re-run, so `complete` never fails: a mark the store did not confirm (it
 * failed, or its answer is late, as while Redis restarts) is held here as
 * done-pending and retried until it lands or its TTL would have passed.
 * While it is pending, a claim of its key in this process answers `done`
 * and a release of it does nothing. Another process sees the key as the
 * store has it until the mark lands (see docs/triggers-faults.md).
 */
export class DonePendingDedupeStore implements DedupeStore {
  private readonly pending = new Map<string, PendingMark>();
  private readonly confirmWithinMs: number;
  private readonly retryDelaysMs: readonly number[];

  constructor(
    private readonly inner: DedupeStore,
    options: DonePendingOptions = {},
  ) {
    this.confirmWithinMs = options.confirmWithinMs ?? 2_000;
    this.retryDelaysMs = options.retryDelaysMs?.length ? options.retryDelaysMs : DEFAULT_RETRY_DELAYS_MS;
  }

  /** How many started events are not yet recorded done in the store. */
  get pendingCount(): number {
    return this.pending.size;
  }

  claim(key: string, leaseMs: number): Promise<ClaimOutcome> {
    if (this.pending.has(key)) return Promise.resolve({ status: 'done' });
    return this.inner.claim(key, leaseMs);
  }

  renew(key: string, token: string, leaseMs: number): Promise<boolean> {
    if (this.pending.has(key)) return Promise.resolve(false);
    return this.inner.renew(key, token, leaseMs);
  }

  /** Records the event done; resolves once the store confirmed it or `confirmWithinMs` passed, never rejects. */
  async complete(key: string, token: string, ttlMs: number): Promise<void> {
    const earlier = this.pending.get(key);
    if (earlier) return;
    const mark = { token, ttlMs, until: Date.now() + ttlMs } as PendingMark;
    this.pending.set(key, mark);
    mark.landed = this.land(key, mark);
    await Promise.race([mark.landed, pause(this.confirmWithinMs)]);
  }

  release(key: string, token: string): Promise<void> {
    if (this.pending.has(key)) return Promise.resolve();
    return this.inner.release(key, token);
  }

  markOnce(key: string, ttlMs: number): Promise<boolean> {
    return this.inner.markOnce(key, ttlMs);
  }

  /** Waits until every pending mark landed, or `timeoutMs` passed; returns how many are still pending. */
  async settle(timeoutMs: number): Promise<number> {
    const all = Promise.all([...this.pending.values()].map((mark) => mark.landed));
    await Promise.race([all, pause(timeoutMs)]);
    return this.pending.size;
  }

  private async land(key: string, mark: PendingMark): Promise<void> {
    for (let attempt = 0; Date.now() < mark.until; attempt += 1) {
      try {
        await this.inner.complete(key, mark.token, Math.max(1, mark.until - Date.now()));
        break;
      } catch {
        const delays = this.retryDelaysMs;
        await pause(delays[Math.min(attempt, delays.length - 1)] as number);
      }
    }
    if (this.pending.get(key) === mark) this.pending.delete(key);
  }
}
