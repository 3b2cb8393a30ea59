import { describe, expect, it } from 'vitest';
import type { WindowVerdict } from '../../sandbox/fixed-window-limiter.js';
import { draftRateLimitHeaders, secondsToReset } from '../../sandbox/rate-limit-headers.js';

const verdict = (resetAt: number): WindowVerdict => ({ allowed: true, limit: 300, remaining: 299, resetAt });

describe('rate-limit headers of the emulators', () => {
  it('rounds the time to the refill up to whole seconds', () => {
    expect(secondsToReset(verdict(61_001), 1_000)).toBe(61);
    expect(secondsToReset(verdict(60_000), 0)).toBe(60);
  });

  it('never says 0 seconds, even at the very end of a window', () => {
    expect(secondsToReset(verdict(5_000), 5_000)).toBe(1);
  });

  it("answers the IETF draft's three headers, the reset in seconds from now", () => {
    expect(draftRateLimitHeaders(verdict(90_500), 30_000)).toEqual({
      'ratelimit-limit': '300',
      'ratelimit-remaining': '299',
      'ratelimit-reset': '61',
    });
  });
});
