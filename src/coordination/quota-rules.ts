/**
 * The rules of a shared quota, said once for both implementations: the
 * in-process coordinator runs these functions, the Redis coordinator runs
 * the same steps as one Lua script (`redis-scripts.ts`) so no two workers
 * interleave them. A window is stored as `{ r: remaining we may still
 * send, l: limit, t: reset time, p: probe time, after: the reset of the
 * window before }`.
 */
export interface QuotaWindowState {
  r: number;
  l?: number;
  t?: number;
  p?: number;
  after?: number;
}

/** Reset headers come in whole seconds, so two answers about one window differ by up to this much. */
export const RESET_TOLERANCE_MS = 1000;
/** When the provider says the quota is spent but not when it refills: pause, then let one request probe. */
export const PROBE_PAUSE_MS = 1000;
/** After a refill we count from the limit until an answer says when the new window ends; until then, poll. */
export const NEW_WINDOW_POLL_MS = 100;

/**
 * Counts one request against every window, or says when to try again.
 * A window past its reset refills to its limit (fixed windows, the way the
 * providers count), and one whose refill time is unknown is forgotten, so
 * the next answer tells the truth.
 */
export function takeFromWindows(
  windows: Map<string, QuotaWindowState>,
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
    if (current.r > 0) continue;
    if (current.t !== undefined) retryAt = Math.max(retryAt, current.t);
    else if (current.after !== undefined) retryAt = Math.max(retryAt, now + NEW_WINDOW_POLL_MS);
    else {
      current.p ??= now + PROBE_PAUSE_MS;
      retryAt = Math.max(retryAt, current.p);
    }
  }
  if (retryAt > now) return { allowed: false, retryAt };
  for (const window of windows.values()) window.r -= 1;
  return { allowed: true };
}

/**
 * Corrects one window from an answer. What the provider says can only lower
 * what we may still send within the window we count (requests in flight are
 * not in its number yet); an answer about a later window starts that window;
 * an answer about a window already over is ignored, so a late answer never
 * undoes a refill.
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
    if (current.after !== undefined && seen.resetAt <= current.after + RESET_TOLERANCE_MS) return undefined;
    return { ...fresh, r: Math.min(current.r, seen.remaining) };
  }
  if (seen.resetAt > current.t + RESET_TOLERANCE_MS) return fresh;
  if (seen.resetAt < current.t - RESET_TOLERANCE_MS) return undefined;
  return { ...fresh, r: Math.min(current.r, seen.remaining), t: Math.min(current.t, seen.resetAt) };
}
