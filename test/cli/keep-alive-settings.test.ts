import { describe, expect, it } from 'vitest';
import { keepAliveSettings } from '../../cli/keep-alive-loop.js';

const DAY_MS = 86_400_000;

describe('the keep-alive settings of a serving command', () => {
  it('worker and serve: a pass a day by default, looking every minute, with the 7-day window', () => {
    expect(keepAliveSettings({ keepAlive: true }, true, {})).toEqual({
      periodMs: DAY_MS,
      pollMs: 60_000,
      windowMs: 7 * DAY_MS,
    });
  });

  it('the period from the flag, else the environment; a period under a minute is looked at as often', () => {
    const env = { TOOLSTEPS_KEEP_ALIVE_EVERY: '12h' };
    expect(keepAliveSettings({ keepAliveEvery: '6h' }, true, env)?.periodMs).toBe(DAY_MS / 4);
    expect(keepAliveSettings({}, true, env)?.periodMs).toBe(DAY_MS / 2);
    expect(keepAliveSettings({ keepAliveEvery: '30s' }, true, {})).toMatchObject({
      periodMs: 30_000,
      pollMs: 30_000,
    });
    expect(keepAliveSettings({}, true, { TOOLSTEPS_KEEP_ALIVE_POLL_MS: '250' })?.pollMs).toBe(250);
  });

  it('off with --no-keep-alive or TOOLSTEPS_KEEP_ALIVE=off; listen only when a period is given', () => {
    expect(keepAliveSettings({ keepAlive: false }, true, {})).toBeUndefined();
    expect(keepAliveSettings({}, true, { TOOLSTEPS_KEEP_ALIVE: 'OFF' })).toBeUndefined();
    expect(keepAliveSettings({}, false, {})).toBeUndefined();
    expect(keepAliveSettings({}, false, { TOOLSTEPS_KEEP_ALIVE_EVERY: '1d' })?.periodMs).toBe(DAY_MS);
    expect(keepAliveSettings({ keepAliveEvery: '1d', keepAlive: false }, false, {})).toBeUndefined();
  });

  it('a malformed value is refused with a typed error naming where it came from', () => {
    expect(() => keepAliveSettings({ keepAliveEvery: 'daily' }, true, {})).toThrow(
      expect.objectContaining({
        code: 'input_invalid',
        fields: [expect.objectContaining({ path: 'keep-alive-every' })],
      }),
    );
    expect(() => keepAliveSettings({}, true, { TOOLSTEPS_KEEP_ALIVE_EVERY: '0d' })).toThrow(
      /TOOLSTEPS_KEEP_ALIVE_EVERY/,
    );
    expect(() => keepAliveSettings({}, true, { TOOLSTEPS_KEEP_ALIVE: 'maybe' })).toThrow(/on or off/);
    expect(() => keepAliveSettings({}, true, { TOOLSTEPS_KEEP_ALIVE_POLL_MS: '5' })).toThrow(
      /TOOLSTEPS_KEEP_ALIVE_POLL_MS/,
    );
  });
});
