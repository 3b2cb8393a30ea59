import type { Clock } from '../clock.js';
import { RateLimitError } from '../errors.js';
import type { RateLimitSnapshot, RateLimitWindow } from './rate-limit.js';

const UNKNOWN_RESET_PAUSE_MS = 1000;

export interface RateGateOptions {
  clock: Clock;
  /** Longest wait the gate accepts before failing with RateLimitError instead. */
  maxWaitMs: number;
  /** Requests kept in hand per window, so parallel callers do not overshoot. */
  reserve?: number;
}

interface WindowState extends RateLimitWindow {
  /** Requests sent since the provider last told us `remaining`. */
  inFlight: number;
}

/**
 * Waits before a request when the provider's own headers say the quota is
 * spent, instead of sending and being told 429. One gate per connection: it
 * learns from every response and counts requests it lets through until the
 * next response corrects the count.
 */
export class RateGate {
  private windows = new Map<string, WindowState>();
  private last: RateLimitSnapshot | undefined;
  waits = 0;
  waitedMs = 0;

  constructor(private readonly options: RateGateOptions) {}

  get snapshot(): RateLimitSnapshot | undefined {
    return this.last;
  }

  observe(snapshot: RateLimitSnapshot | undefined): void {
    if (!snapshot) return;
    this.last = snapshot;
    for (const window of snapshot.windows) {
      this.windows.set(window.name, { ...window, inFlight: 0 });
    }
  }

  /** Resolves when a request may be sent; counts it against every known window. */
  async acquire(signal?: AbortSignal): Promise<void> {
    const reserve = this.options.reserve ?? 0;
    for (;;) {
      const now = this.options.clock.now();
      let waitUntil = 0;
      for (const [name, window] of this.windows) {
        if (window.resetAt !== undefined && window.resetAt <= now) {
          // The window has rolled over; the next response will tell the truth.
          this.windows.delete(name);
          continue;
        }
        if (window.remaining - window.inFlight <= reserve) {
          if (window.resetAt === undefined) {
            // The provider did not say when it refills: pause once, then let
            // one request probe and learn the truth from its headers.
            this.windows.delete(name);
            waitUntil = Math.max(waitUntil, now + UNKNOWN_RESET_PAUSE_MS);
          } else waitUntil = Math.max(waitUntil, window.resetAt);
        }
      }
      if (waitUntil <= now) break;
      const waitMs = waitUntil - now;
      if (waitMs > this.options.maxWaitMs) {
        throw new RateLimitError(
          `The provider's quota is spent until ${new Date(waitUntil).toISOString()}; that is longer than the ${this.options.maxWaitMs} ms this call may wait.`,
          { retryAfterMs: waitMs },
        );
      }
      this.waits += 1;
      this.waitedMs += waitMs;
      await this.options.clock.sleep(waitMs, signal);
    }
    for (const window of this.windows.values()) window.inFlight += 1;
  }
}
