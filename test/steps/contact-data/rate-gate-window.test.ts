import { describe, expect, it } from 'vitest';
import { RateGate } from '../../../src/http/rate-gate.js';
import { ManualClock } from '../../../src/model/clock.js';

/** The gate's estimate for C's windows, which name their length but never their reset. */
describe('rate gate: windows known only by their length', () => {
  const minute = (remaining: number, observedAt: number) => ({
    observedAt,
    windows: [{ name: 'minute', limit: 3, remaining, windowMs: 60_000 }],
  });

  /** A gate on a manual clock at 0 that accepts waits of up to a minute. */
  const gateAtZero = () => {
    const clock = new ManualClock(0);
    return { clock, gate: new RateGate({ clock, maxWaitMs: 60_000 }) };
  };

  it('waits until one window length after the first answer of the cycle, not the last', async () => {
    const { clock, gate } = gateAtZero();
    await gate.acquire();
    gate.observe(minute(2, clock.now()));
    clock.advance(20_000);
    await gate.acquire();
    gate.observe(minute(1, clock.now()));
    await gate.acquire();
    gate.observe(minute(0, clock.now()));
    await gate.acquire();
    expect(clock.sleeps).toEqual([40_000]);
    expect(clock.now()).toBe(60_000);
  });

  it('counts from the limit after the estimated refill, so waiting callers do not all rush in', async () => {
    const { clock, gate } = gateAtZero();
    await gate.acquire();
    gate.observe(minute(0, clock.now()));
    clock.advance(60_000);
    for (let sent = 0; sent < 3; sent += 1) await gate.acquire();
    expect(clock.sleeps).toEqual([]);
    await gate.acquire();
    expect(clock.sleeps).toEqual([60_000]);
  });

  it('fails at once when the estimate is longer than the wait allowed (a spent daily quota)', async () => {
    const { clock, gate } = gateAtZero();
    await gate.acquire();
    gate.observe({
      observedAt: 0,
      windows: [{ name: 'daily', limit: 100, remaining: 0, windowMs: 86_400_000 }],
    });
    await expect(gate.acquire()).rejects.toMatchObject({ code: 'rate_limited', retryAfterMs: 86_400_000 });
    expect(clock.sleeps).toEqual([]);
  });

  it('keeps the old behaviour for windows with neither a reset nor a length: pause 1 s, then probe', async () => {
    const { clock, gate } = gateAtZero();
    await gate.acquire();
    gate.observe({ observedAt: 0, windows: [{ name: 'minute', remaining: 0 }] });
    await gate.acquire();
    expect(clock.sleeps).toEqual([1000]);
  });
});
