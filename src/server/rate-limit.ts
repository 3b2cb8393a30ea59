/** How many requests one caller (a token, for one) may make per window. */
export interface RateWindow {
  requests: number;
  windowMs: number;
  /** Callers tracked at once; past it the oldest windows are forgotten, so a flood of callers cannot grow memory. */
  maxTracked: number;
}

interface Window {
  count: number;
  endsAt: number;
}

/**
 * A fixed window per caller, in the process's memory: a caller's window
 * starts at its first request and lasts `windowMs`; past `requests` in it,
 * each request is refused until it ends. Counted in the request's own turn,
 * without a promise or a hook of its own: the builder counts every token
 * request, and Fastify's rate-limit plugin, which did this before, cost each
 * one a promise and a store callback (docs/benchmarks.md). At most
 * `maxTracked` callers are held (a Map keeps insertion order, so the oldest
 * window is the first key).
 */
export class FixedWindows {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly window: RateWindow,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one request of `caller`: undefined when it may go on, else the ms until its window ends (for Retry-After). */
  count(caller: string): number | undefined {
    const now = this.now();
    let current = this.windows.get(caller);
    if (!current || current.endsAt <= now) {
      if (current) this.windows.delete(caller);
      else if (this.windows.size >= this.window.maxTracked) this.forgetOldest();
      current = { count: 0, endsAt: now + this.window.windowMs };
      this.windows.set(caller, current);
    }
    current.count += 1;
    return current.count > this.window.requests ? current.endsAt - now : undefined;
  }

  private forgetOldest(): void {
    const oldest = this.windows.keys().next();
    if (!oldest.done) this.windows.delete(oldest.value);
  }
}
