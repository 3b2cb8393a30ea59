import { AbortedError } from '../errors/index.js';

/** Time as the runtime sees it. Tests pass a manual clock so no test waits for real. */
export interface Clock {
  /** Epoch milliseconds; token expiry, rate windows and Retry-After dates are all compared against it. */
  now(): number;
  /** Resolves after `ms`, or rejects with AbortedError as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Real time, the default wherever a clock is optional. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(new AbortedError('The operation was aborted while waiting.'));
        return;
      }
      const onAbort = () => {
        clearTimeout(timer);
        reject(new AbortedError('The operation was aborted while waiting.'));
      };
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/**
 * A clock that never waits: `sleep` advances `now` at once and records the
 * wait, so tests can assert on how long the runtime would have waited.
 */
export class ManualClock implements Clock {
  readonly sleeps: number[] = [];
  constructor(private current = Date.UTC(2026, 0, 1)) {}
  now(): number {
    return this.current;
  }
  /** Moves time on without a wait, as when a token should expire between two calls. */
  advance(ms: number): void {
    this.current += ms;
  }
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw new AbortedError('The operation was aborted while waiting.');
    this.sleeps.push(ms);
    this.current += Math.max(0, ms);
    await Promise.resolve();
  }
}

/** Where a scaled clock starts and how fast it runs; plain numbers, so child processes can share one. */
export interface ScaledClockSettings {
  /** The clock's time at `realStart`. */
  startAt: number;
  /** Real epoch ms at which it read `startAt`. */
  realStart: number;
  /** How many clock milliseconds pass per real millisecond. */
  speed: number;
}

/**
 * A clock that runs `speed` times faster than real time, so a test or the benchmark can spend
 * minutes of provider time (rate windows, token lifetimes) in seconds. Every
 * process given the same settings reads the same time, so a sandbox and
 * worker processes agree on when a window refills; waits shrink by the same factor.
 */
export class ScaledClock implements Clock {
  constructor(readonly settings: ScaledClockSettings) {
    if (!(settings.speed > 0)) throw new RangeError(`speed must be positive, got ${settings.speed}.`);
  }

  /** A clock reading `startAt` now; hand its `settings` to other processes so they read the same time. */
  static starting(startAt: number, speed: number): ScaledClock {
    return new ScaledClock({ startAt, realStart: Date.now(), speed });
  }

  now(): number {
    const { startAt, realStart, speed } = this.settings;
    return Math.floor(startAt + (Date.now() - realStart) * speed);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return systemClock.sleep(Math.ceil(Math.max(0, ms) / this.settings.speed), signal);
  }
}

/**
 * Real time plus a jump a person makes by hand (`advance`): it keeps
 * running, so rate windows refill and waits wait, and `POST /_sandbox/clock`
 * moves it on, so a token's or a refresh token's end can be reached on
 * purpose (`toolsteps sandbox --manual-clock`).
 */
export class AdvancingClock implements Clock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  /** Moves the clock on by `ms`; it never goes back. */
  advance(ms: number): void {
    this.offsetMs += Math.max(0, ms);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return systemClock.sleep(ms, signal);
  }
}
