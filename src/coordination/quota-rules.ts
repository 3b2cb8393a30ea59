/**
 * The rules of a shared quota, said once for both implementations: the
 * in-process coordinator runs these functions, the Redis coordinator runs
 * the same steps as one Lua script (`redis-scripts.ts`) so no two workers
 * interleave them.
 *
 * A window is stored as `{ r: the lowest remaining the provider reported
 * in it (or its limit once it refilled), l: limit, t: reset time, p: probe
 * time, after: the reset of the window before }`. Beside the windows, every
 * request let through and not yet answered is in flight: the provider may
 * not have counted it yet, so a window allows `r - inFlight` more. The
 * provider's own count corrects ours with every answer, and a request that
 * was counted before it was answered gives its place back when its answer
 * comes: N workers neither overshoot nor leave quota unused.
 */
export interface QuotaWindowState {
  r: number;
  l?: number;
  t?: number;
  p?: number;
  after?: number;
}

/**
 * Reset headers come in whole seconds and are read some time after the
 * provider wrote them, so two answers about one window may put its reset
 * this far apart.
 */
export const RESET_TOLERANCE_MS = 2000;
/** A refilled window ignores answers whose reset is within this of the refill: they are late answers about the window before. */
export const REFILL_TOLERANCE_MS = 5000;
/** When the provider says the quota is spent but not when it refills: pause, then let one request probe. */
export const PROBE_PAUSE_MS = 1000;
/** Spent while requests are still in flight: their answers may give places back, so look again soon. */
export const IN_FLIGHT_POLL_MS = 100;
/** A request unanswered for this long (real time) was lost with its worker; it stops holding a place. */
export const IN_FLIGHT_EXPIRY_MS = 120_000;

/**
 * Whether one more request may go now, given `inFlight` unanswered ones;
 * when not, the time to look again. Windows past their reset refill to their
 * limit (fixed windows, the way the providers count); one whose refill time
 * is unknown is forgotten, so the next answer tells the truth.
 */
export function takeFromWindows(
  windows: Map<string, QuotaWindowState>,
  inFlight: number,
  now: number,
): { allowed: true } | { allowed: false; retryAt: number } {
  let retryAt = 0;
  for (const [name, window] of windows) {
    if (window.t !== undefined && window.t <= now) {
      if (window.l === undefined) {
        windows.delete(name);
        continue;
      }
      windows.set(name, { r: window.l, l: window.l, after: window.t });
    } else if (window.p !== undefined && window.p <= now) {
      windows.delete(name);
      continue;
    }
    const current = windows.get(name) as QuotaWindowState;
    if (current.r - inFlight > 0) continue;
    if (inFlight > 0) retryAt = Math.max(retryAt, now + IN_FLIGHT_POLL_MS);
    else if (current.t !== undefined) retryAt = Math.max(retryAt, current.t);
    else {
      current.p ??= now + PROBE_PAUSE_MS;
      retryAt = Math.max(retryAt, current.p);
    }
  }
  return retryAt > now ? { allowed: false, retryAt } : { allowed: true };
}

/**
 * Folds one answer into a window. What the provider reports can only lower
 * the window's count (answers arrive out of order); an answer about a later
 * window starts that window; an answer about a window already over is
 * ignored, so a late answer never undoes a refill.
 */
export function observeIntoWindow(
  current: QuotaWindowState | undefined,
  seen: { remaining: number; limit?: number; resetAt?: number },
  now: number,
): QuotaWindowState | undefined {
  const limit = seen.limit ?? current?.l;
  const fresh: QuotaWindowState = { r: seen.remaining, ...(limit === undefined ? {} : { l: limit }) };
  if (seen.resetAt !== undefined) fresh.t = seen.resetAt;
  if (!current) return fresh;
  if (seen.resetAt === undefined) return { ...current, r: Math.min(current.r, seen.remaining) };
  if (seen.resetAt <= now) return undefined;
  if (current.t === undefined) {
    // Counting a refilled window: only an answer from after the refill may say when it ends.
    if (current.after !== undefined && seen.resetAt <= current.after + REFILL_TOLERANCE_MS) return undefined;
    return { ...fresh, r: Math.min(current.r, seen.remaining) };
  }
  if (seen.resetAt > current.t + RESET_TOLERANCE_MS) {
    // Before the window we count has ended, a later reset is a late reading, not a new window.
    return now < current.t ? { ...current, r: Math.min(current.r, seen.remaining) } : fresh;
  }
  if (seen.resetAt < current.t - RESET_TOLERANCE_MS) return undefined;
  return { ...fresh, r: Math.min(current.r, seen.remaining), t: Math.min(current.t, seen.resetAt) };
}

/** Shared quota state outlives every window we know of, then goes. */
export const QUOTA_TTL_MS = 24 * 60 * 60_000;
