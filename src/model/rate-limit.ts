// What a provider says of its quota (snapshots, header readers) and what a rate gate must do with it (Gate).
/** One quota window a provider reports: per minute, per hour, per day, or its own name. */
export interface RateLimitWindow {
  name: string;
  limit?: number;
  remaining: number;
  /** Epoch ms when `remaining` refills; unknown when the provider does not say. */
  resetAt?: number;
  /**
   * Length of the window, for providers that name it (per minute, hour, day)
   * but say neither when it refills nor Retry-After (C): the gate estimates
   * the refill from it instead of probing.
   */
  windowMs?: number;
}

/** The provider's quota as its last answer stated it, so callers can slow down before being refused. */
export interface RateLimitSnapshot {
  windows: RateLimitWindow[];
  observedAt: number;
}

/** Reads an integer header, or undefined. */
export function intHeader(headers: Headers, name: string): number | undefined {
  const raw = headers.get(name);
  if (raw === null || raw.trim() === '') return undefined;
  const value = Number(raw);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * A snapshot of one quota window, from the three numbers most providers send:
 * what is left, the limit, and when it refills (epoch ms), the last two optional.
 */
export function singleWindow(
  name: string,
  now: number,
  remaining: number | undefined,
  limit: number | undefined,
  resetAt: number | undefined,
): RateLimitSnapshot | undefined {
  if (remaining === undefined) return undefined;
  // Built field by field: a spread of a conditional object per field cost two objects more per answer.
  const window: RateLimitWindow = { name, remaining };
  if (limit !== undefined) window.limit = limit;
  if (resetAt !== undefined) window.resetAt = resetAt;
  return { observedAt: now, windows: [window] };
}

/** How a provider states when its window refills: seconds from now, or an epoch time in seconds. */
export type QuotaResetFormat = 'seconds_from_now' | 'epoch_seconds';

/**
 * The headers that carry one quota window. A figure some responses send
 * under one name and others under another lists both; the first present wins.
 */
export interface QuotaHeaders {
  window: string;
  remaining: readonly string[];
  limit: readonly string[];
  reset: string;
  resetFormat: QuotaResetFormat;
}

function firstIntHeader(headers: Headers, names: readonly string[]): number | undefined {
  for (const name of names) {
    const value = intHeader(headers, name);
    if (value !== undefined) return value;
  }
  return undefined;
}

/**
 * A `readRateLimit` for the common case of one window in three headers,
 * so an integration names its headers instead of re-writing the reading.
 */
export function readQuotaHeaders(names: QuotaHeaders) {
  return (headers: Headers, now: number): RateLimitSnapshot | undefined => {
    const resetSeconds = intHeader(headers, names.reset);
    const resetOrigin = names.resetFormat === 'seconds_from_now' ? now : 0;
    return singleWindow(
      names.window,
      now,
      firstIntHeader(headers, names.remaining),
      firstIntHeader(headers, names.limit),
      resetSeconds === undefined ? undefined : resetOrigin + resetSeconds * 1000,
    );
  };
}

/** The window with the least room left: the one that decides whether we wait. */
export function tightestWindow(snapshot: RateLimitSnapshot | undefined): RateLimitWindow | undefined {
  if (!snapshot) return undefined;
  let tightest: RateLimitWindow | undefined;
  for (const window of snapshot.windows) {
    if (!tightest || window.remaining < tightest.remaining) tightest = window;
  }
  return tightest;
}

/** No provider window refills later than this; a reset beyond it (9e12, say) is a provider's error. */
const MAX_RESET_HORIZON_MS = 24 * 60 * 60_000;

/**
 * A window as a provider's headers described it, made safe to plan with:
 * counts that are not finite are dropped, and a reset in the past or absurdly
 * far ahead (9e12) is clamped into the next day.
 */
export function saneWindow(window: RateLimitWindow, observedAt: number): RateLimitWindow | undefined {
  if (!Number.isFinite(window.remaining)) return undefined;
  const finite = (value: number | undefined) =>
    value !== undefined && Number.isFinite(value) ? value : undefined;
  const resetAt = finite(window.resetAt);
  const windowMs = finite(window.windowMs);
  const limit = finite(window.limit);
  const sane: RateLimitWindow = { name: window.name, remaining: Math.max(0, window.remaining) };
  if (limit !== undefined) sane.limit = limit;
  if (resetAt !== undefined)
    sane.resetAt = Math.min(Math.max(resetAt, observedAt), observedAt + MAX_RESET_HORIZON_MS);
  if (windowMs !== undefined) sane.windowMs = Math.min(Math.max(windowMs, 0), MAX_RESET_HORIZON_MS);
  return sane;
}

/**
 * What the transport needs of a rate gate. `RateGate` keeps one process's
 * count; `SharedRateGate` (src/coordination) keeps one count for every
 * worker in Redis. Its reports may be asynchronous, so the transport awaits them.
 */
export interface Gate {
  /** How many times the caller waited before a request may be sent: a number when it need not wait, else a promise of it. */
  acquire(signal?: AbortSignal): number | Promise<number>;
  /** Once per request let through, with what its answer's headers say. */
  observe(snapshot: RateLimitSnapshot | undefined): void | Promise<void>;
  /** An answer that does not settle a request of ours (a redirect hop). */
  learn(snapshot: RateLimitSnapshot | undefined): void | Promise<void>;
  /** A request let through ended without an answer. */
  abandon(): void | Promise<void>;
}
