import type { Clock } from '../src/clock.js';
import { systemClock } from '../src/clock.js';

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
 * A clock that runs `speed` times faster than real time, so a test can spend
 * minutes of provider time (rate windows, token lifetimes) in seconds. Every
 * process given the same settings reads the same time, so a sandbox and
 * worker processes agree on when a window refills; waits shrink by the same factor.
 */
export class ScaledClock implements Clock {
  constructor(readonly settings: ScaledClockSettings) {
    if (!(settings.speed > 0)) throw new RangeError(`speed must be positive, got ${settings.speed}.`);
  }

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
