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
  return {
    observedAt: now,
    windows: [
      {
        name,
        remaining,
        ...(limit === undefined ? {} : { limit }),
        ...(resetAt === undefined ? {} : { resetAt }),
      },
    ],
  };
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
