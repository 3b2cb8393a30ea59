import type { Coordinator } from '../coordination/coordinator.js';
import { LocalCoordinator } from '../coordination/local-coordinator.js';
import { type Clock, systemClock } from '../model/clock.js';

/** The default time between two keep-alive passes: a day, well inside the default 7-day window. */
export const DEFAULT_KEEP_ALIVE_PERIOD_MS = 24 * 60 * 60_000;
/** How often, by default, a process looks whether the next pass is due. */
export const DEFAULT_KEEP_ALIVE_POLL_MS = 60_000;
/** The shared key holding when the next pass is due (epoch ms of the schedule's clock). */
export const KEEP_ALIVE_NEXT_PASS_KEY = 'keep-alive:next-pass';
/** The schedule's key outlives a stop of every worker by this much at least, so a restart keeps the rhythm. */
const KEPT_AT_LEAST_MS = 7 * 24 * 60 * 60_000;

/** What runs keep-alive passes on a schedule: where the schedule is held, how often, and the pass. */
export interface KeepAliveScheduleOptions {
  /**
   * Where the next pass's time is held: a Redis coordinator shares it with
   * every process on that Redis (one pass per period between them, kept
   * across restarts); undefined keeps it in this process.
   */
  coordinator: Coordinator | undefined;
  /** Time between two passes. */
  periodMs: number;
  /** How often this process looks whether the next pass is due (default a minute). */
  pollMs?: number;
  clock?: Clock;
  /** One pass (every tenant's connections); a throw is handed to `onError` and the pass is tried again a poll later. */
  pass(): Promise<void>;
  /** Told of a pass that threw (the CLI writes a `keep-alive-failed` line); the schedule goes on. */
  onError?(error: unknown): void;
}

/** A running keep-alive schedule. */
export interface KeepAliveSchedule {
  /** Stops looking for due passes and waits for a pass under way to end. */
  stop(): Promise<void>;
}

/**
 * Takes the pass due now, for this process alone: the next pass's time
 * moves one period on only where it still holds what was read, so of N
 * processes that find it due at once, one wins and the others see it moved.
 * True when this process should run the pass.
 */
export async function claimKeepAlivePass(coordinator: Coordinator, now: number, periodMs: number) {
  const next = await coordinator.getValue(KEEP_ALIVE_NEXT_PASS_KEY);
  if (next !== undefined && Number(next) > now) return false;
  const keptMs = Math.max(KEPT_AT_LEAST_MS, 4 * periodMs);
  return coordinator.compareAndSet(KEEP_ALIVE_NEXT_PASS_KEY, next, String(now + periodMs), keptMs);
}

/**
 * Gives a pass that failed before it finished back to the schedule: it is
 * due again at once, unless another process has moved the schedule since.
 */
async function giveBack(coordinator: Coordinator, claimedUntil: number, now: number): Promise<void> {
  await coordinator
    .compareAndSet(KEEP_ALIVE_NEXT_PASS_KEY, String(claimedUntil), String(now), KEPT_AT_LEAST_MS)
    .catch(() => undefined);
}

/**
 * Runs `pass` once per period, as `toolsteps worker`, `serve` and `listen`
 * do. With a shared coordinator the period is held in Redis, so N processes
 * make one pass per period between them and a restart keeps the rhythm
 * (the first process to start after a long stop passes at once). A process
 * killed mid-pass loses nothing: every refresh in it is under the
 * connection's lock and write-ahead record, and the next period's pass (or
 * the next call) finishes what it left.
 */
export function startKeepAliveSchedule(options: KeepAliveScheduleOptions): KeepAliveSchedule {
  const clock = options.clock ?? systemClock;
  const coordinator = options.coordinator ?? new LocalCoordinator();
  const pollMs = options.pollMs ?? DEFAULT_KEEP_ALIVE_POLL_MS;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const tick = async () => {
    const now = clock.now();
    let claimed = false;
    try {
      claimed = await claimKeepAlivePass(coordinator, now, options.periodMs);
      if (claimed && !stopped) await options.pass();
    } catch (error) {
      if (claimed) await giveBack(coordinator, now + options.periodMs, clock.now());
      options.onError?.(error);
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick().finally(schedule);
    }, pollMs);
  };
  running = tick().finally(schedule);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      if (!options.coordinator) await coordinator.close();
    },
  };
}
