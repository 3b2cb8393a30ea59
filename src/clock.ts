import { AbortedError } from './errors.js';

/** Time as the runtime sees it. Tests pass a manual clock so no test waits for real. */
export interface Clock {
  now(): number;
  /** Resolves after `ms`, or rejects with AbortedError as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

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

/**
 * Real time run `speed` times faster from `epoch` (ms): a quota window of a
 * minute passes in a second at 60x. The benchmark gives the sandbox process
 * and its client the same speed and epoch, so both see the same time and a
 * quota-bound run takes seconds instead of minutes.
 */
export function scaledClock(speed: number, epoch: number): Clock {
  return {
    now: () => epoch + (Date.now() - epoch) * speed,
    sleep: (ms, signal) => systemClock.sleep(ms / speed, signal),
  };
}
