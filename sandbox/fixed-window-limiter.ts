import type { Clock } from '../src/model/clock.js';

export interface WindowVerdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch ms when the window refills. */
  resetAt: number;
}

/**
 * A quota that refills at fixed boundaries (every minute on the minute, say),
 * the way the emulated providers count. Keys are accounts or API keys.
 */
export class FixedWindowLimiter {
  private readonly counts = new Map<string, { windowStart: number; used: number }>();

  constructor(
    private readonly clock: Clock,
    public limit: number,
    private readonly windowMs: number,
  ) {}

  private state(key: string) {
    const now = this.clock.now();
    const windowStart = now - (now % this.windowMs);
    let entry = this.counts.get(key);
    if (!entry || entry.windowStart !== windowStart) {
      entry = { windowStart, used: 0 };
      this.counts.set(key, entry);
    }
    return entry;
  }

  /** Counts one request if the quota allows it. */
  consume(key: string): WindowVerdict {
    const entry = this.state(key);
    const resetAt = entry.windowStart + this.windowMs;
    if (entry.used >= this.limit) return { allowed: false, limit: this.limit, remaining: 0, resetAt };
    entry.used += 1;
    return { allowed: true, limit: this.limit, remaining: this.limit - entry.used, resetAt };
  }

  peek(key: string): WindowVerdict {
    const entry = this.state(key);
    const remaining = Math.max(0, this.limit - entry.used);
    return {
      allowed: remaining > 0,
      limit: this.limit,
      remaining,
      resetAt: entry.windowStart + this.windowMs,
    };
  }

  reset(): void {
    this.counts.clear();
  }
}
