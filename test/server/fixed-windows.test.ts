import { describe, expect, it } from 'vitest';
import { FixedWindows } from '../../src/server/rate-limit.js';

describe("each caller's fixed window", () => {
  it('lets `requests` through per window, then says how long until it ends; another caller is not slowed', () => {
    let now = 1_000;
    const windows = new FixedWindows({ requests: 2, windowMs: 60_000, maxTracked: 10 }, () => now);
    expect([windows.count('a'), windows.count('a')]).toEqual([undefined, undefined]);
    now += 15_000;
    expect(windows.count('a')).toBe(45_000);
    expect(windows.count('b')).toBeUndefined();
    now += 45_000;
    expect(windows.count('a')).toBeUndefined();
  });

  it('forgets the oldest window past maxTracked, so a flood of callers cannot grow memory', () => {
    const windows = new FixedWindows({ requests: 1, windowMs: 60_000, maxTracked: 2 }, () => 0);
    windows.count('a');
    expect(windows.count('a')).toBeGreaterThan(0);
    windows.count('b');
    windows.count('c');
    // a's window was the oldest: forgotten, so a starts afresh.
    expect(windows.count('a')).toBeUndefined();
  });
});
