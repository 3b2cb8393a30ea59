import { describe, expect, it } from 'vitest';
import { readQuotaHeaders } from '../../src/model/rate-limit.js';

const NOW = 1_700_000_000_000;

const minute = readQuotaHeaders({
  window: 'minute',
  remaining: ['ratelimit-remaining', 'x-rate-limit-remaining'],
  limit: ['ratelimit-limit', 'x-rate-limit'],
  reset: 'ratelimit-reset',
  resetFormat: 'seconds_from_now',
});

describe('readQuotaHeaders', () => {
  it('reads one window, a reset in seconds from now becoming an epoch time', () => {
    const headers = new Headers({
      'ratelimit-remaining': '7',
      'ratelimit-limit': '10',
      'ratelimit-reset': '30',
    });
    expect(minute(headers, NOW)).toEqual({
      observedAt: NOW,
      windows: [{ name: 'minute', remaining: 7, limit: 10, resetAt: NOW + 30_000 }],
    });
  });

  it('takes the first header present when a figure has two names', () => {
    const headers = new Headers({
      'x-rate-limit-remaining': '3',
      'x-rate-limit': '400',
      'ratelimit-limit': '50',
    });
    expect(minute(headers, NOW)?.windows).toEqual([{ name: 'minute', remaining: 3, limit: 50 }]);
  });

  it('reads a reset given as epoch seconds as that time', () => {
    const api = readQuotaHeaders({
      window: 'api',
      remaining: ['x-ratelimit-remaining'],
      limit: ['x-ratelimit-limit'],
      reset: 'x-ratelimit-reset',
      resetFormat: 'epoch_seconds',
    });
    const headers = new Headers({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1700000060' });
    expect(api(headers, NOW)?.windows).toEqual([{ name: 'api', remaining: 0, resetAt: 1_700_000_060_000 }]);
  });

  it('says nothing when no header gives what is left', () => {
    expect(minute(new Headers({ 'ratelimit-limit': '10', 'ratelimit-reset': '5' }), NOW)).toBeUndefined();
  });
});
