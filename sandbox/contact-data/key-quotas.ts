import type { Clock } from '../../src/model/clock.js';
import { definedOnly } from '../../src/values/defined-only.js';
import { FixedWindowLimiter } from '../fixed-window-limiter.js';

/** Requests per key per window; the provider's plans range 40-300 a minute, 150-5,000 an hour, 100-50,000 a day. */
export interface ContactDataQuota {
  minute: number;
  hourly: number;
  daily: number;
}

const WINDOWS = [
  ['minute', 60_000],
  ['hourly', 3_600_000],
  ['daily', 86_400_000],
] as const;

export interface QuotaVerdict {
  allowed: boolean;
  /** The provider's headers: `x-rate-limit-<window>` and `x-<window>-requests-left`. */
  headers: Record<string, string>;
  /** The first spent window, when refused. */
  spent?: keyof ContactDataQuota;
}

/**
 * The three windows every key is counted in. A request is counted only when
 * all three allow it, and the answer reports all three; like the provider,
 * it never says when a window refills and sends no Retry-After.
 */
export class KeyQuotas {
  private readonly limiters: Record<keyof ContactDataQuota, FixedWindowLimiter>;

  constructor(clock: Clock, quota: ContactDataQuota) {
    this.limiters = Object.fromEntries(
      WINDOWS.map(([name, windowMs]) => [name, new FixedWindowLimiter(clock, quota[name], windowMs)]),
    ) as Record<keyof ContactDataQuota, FixedWindowLimiter>;
  }

  set(quota: Partial<ContactDataQuota>): void {
    for (const [name] of WINDOWS) {
      const limit = quota[name];
      if (limit !== undefined) this.limiters[name].limit = limit;
    }
  }

  consume(key: string): QuotaVerdict {
    const spent = WINDOWS.find(([name]) => !this.limiters[name].peek(key).allowed)?.[0];
    if (!spent) for (const [name] of WINDOWS) this.limiters[name].consume(key);
    const headers: Record<string, string> = {};
    for (const [name] of WINDOWS) {
      const verdict = this.limiters[name].peek(key);
      headers[`x-rate-limit-${name}`] = String(verdict.limit);
      headers[`x-${name}-requests-left`] = String(verdict.remaining);
    }
    return { allowed: spent === undefined, headers, ...definedOnly({ spent }) };
  }

  reset(): void {
    for (const [name] of WINDOWS) this.limiters[name].reset();
  }
}
