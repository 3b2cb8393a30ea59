import { type Logger, silentLogger } from '../model/logger.js';
import { withLock } from '../store/with-lock.js';
import type { Coordinator } from './coordinator.js';

/** How long an idempotency record keeps its result, by default: a day of retries. */
export const DEFAULT_IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;

/**
 * Runs `work` once per `key` across every worker sharing the coordinator:
 * the first runs it under a lock (a killed holder loses it after 15 s) and
 * records its result; any later call with the key, here or on another
 * worker, gets that record instead of sending again. A failed run records
 * nothing, so a retry runs it (the step's own write safety decides how).
 * A result the coordinator cannot record (Redis away after the work was
 * done) is still returned, and logged: failing then would hide work that
 * happened, and the missing record is one that expired early.
 */
export async function onceByKey<T>(
  coordinator: Coordinator,
  key: string,
  ttlMs: number,
  work: () => Promise<T>,
  logger: Logger = silentLogger,
): Promise<{ result: T; recorded: boolean }> {
  const record = `idempotency:${key}`;
  const found = async () => {
    const text = await coordinator.getValue(record);
    return text === undefined ? undefined : { result: JSON.parse(text) as T, recorded: true };
  };
  const earlier = await found();
  if (earlier) return earlier;
  return withLock(
    coordinator,
    record,
    async () => {
      const meanwhile = await found();
      if (meanwhile) return meanwhile;
      const result = await work();
      await coordinator.setValue(record, JSON.stringify(result), ttlMs).catch((error: unknown) => {
        logger.warn('could not keep the idempotency record; a repeat of this key will run again', {
          key,
          error: (error as Error).message,
        });
      });
      return { result, recorded: false };
    },
    { ttlMs: 15_000, waitMs: 10 * 60_000, pollMs: 100 },
  );
}
