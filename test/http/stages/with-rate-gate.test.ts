import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RateLimitError } from '../../../src/errors/index.js';
import { RateGate, withRateGate } from '../../../src/http/rate-gate.js';
import { errorOf, PROBE, probeAttempt, probeOutgoing } from '../../support/probe-transport.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

/** The probe transport behind a rate gate on its clock that waits at most `maxWaitMs`. */
function gatedProbe(maxWaitMs = 60_000) {
  const { send, clock } = probeAttempt();
  const gate = new RateGate({ clock, maxWaitMs });
  const gated = withRateGate(send, gate);
  return {
    clock,
    gate,
    /** `GET /api<path>` through the gate. */
    get: (path: string) => gated(probeOutgoing({ method: 'GET', path })),
    /** The epoch second `seconds` from now on the clock, as the provider's reset header gives it. */
    resetIn: (seconds: number) => Math.floor(clock.now() / 1000) + seconds,
  };
}

/** Two answers to `GET /api/things`: the first spends the quota until `reset` (epoch seconds), the next has 59 left. */
function spentThenRefilled(reset: number): void {
  nock(PROBE)
    .get('/api/things')
    .reply(200, [], { 'x-quota-remaining': '0', 'x-quota-reset': String(reset) })
    .get('/api/things')
    .reply(200, [], { 'x-quota-remaining': '59', 'x-quota-reset': String(reset + 60) });
}

describe('withRateGate: waits before the provider says no', () => {
  it('learns a spent quota from an answer and holds the next request until the reset', async () => {
    const { clock, gate, get, resetIn } = gatedProbe();
    spentThenRefilled(resetIn(20));
    const first = await get('/things');
    expect(first.stats.rateLimitWaits).toBe(0);
    const second = await get('/things');
    expect(second.stats.rateLimitWaits).toBe(1);
    expect(clock.sleeps).toEqual([20_000]);
    expect(gate.snapshot?.windows[0]?.remaining).toBe(59);
  });

  it("keeps the gate's running totals, which a reader cannot reset or skew", async () => {
    const { gate, get, resetIn } = gatedProbe();
    spentThenRefilled(resetIn(20));
    await get('/things');
    await get('/things');
    expect({ waits: gate.waits, waitedMs: gate.waitedMs }).toEqual({ waits: 1, waitedMs: 20_000 });
    expect(() => {
      // @ts-expect-error -- read-only outside the gate
      gate.waits = 0;
    }).toThrow(TypeError);
    expect(() => {
      // @ts-expect-error -- read-only outside the gate
      gate.waitedMs = 0;
    }).toThrow(TypeError);
    expect({ waits: gate.waits, waitedMs: gate.waitedMs }).toEqual({ waits: 1, waitedMs: 20_000 });
  });

  it('keeps the reset an earlier answer gave when a later one gives only the count', async () => {
    const { clock, get, resetIn } = gatedProbe();
    const reset = resetIn(20);
    nock(PROBE)
      .get('/api/things')
      .reply(200, [], { 'x-quota-remaining': '1', 'x-quota-reset': String(reset) })
      .get('/api/thing')
      .reply(200, {}, { 'x-quota-remaining': '0' })
      .get('/api/things')
      .reply(200, [], { 'x-quota-remaining': '59', 'x-quota-reset': String(reset + 60) });
    await get('/things');
    await get('/thing');
    const third = await get('/things');
    // One wait, until the reset the first answer named: not a 1 s pause and a probe.
    expect(third.stats.rateLimitWaits).toBe(1);
    expect(clock.sleeps).toEqual([20_000]);
  });

  it('refuses at once, sending nothing, when the wait is longer than allowed', async () => {
    const { get, resetIn } = gatedProbe(5_000);
    const reset = resetIn(600);
    nock(PROBE)
      .get('/api/things')
      .reply(200, [], { 'x-quota-remaining': '0', 'x-quota-reset': String(reset) });
    await get('/things');
    const refused = await get('/things');
    expect((refused as { error: unknown }).error).toBeInstanceOf(RateLimitError);
    expect(refused.stats.attempts).toBe(0);
  });

  it('counts a request that got no answer against the quota: the provider may have counted it', async () => {
    const { clock, get, resetIn } = gatedProbe();
    const reset = resetIn(30);
    nock(PROBE)
      .get('/api/a')
      .reply(200, [], { 'x-quota-remaining': '1', 'x-quota-reset': String(reset) });
    await get('/a');
    nock(PROBE)
      .get('/api/b')
      .replyWithError(Object.assign(new Error('reset'), { code: 'ECONNRESET' }));
    const lost = await get('/b');
    expect(lost).toMatchObject({ ok: false, stats: { attempts: 1, answers: [] } });
    nock(PROBE).get('/api/c').reply(200, []);
    const third = await get('/c');
    expect(third.stats.rateLimitWaits).toBe(1);
    expect(clock.sleeps).toEqual([30_000]);
  });
});

describe('rate-limit headers are clamped, and a later answer corrects them', () => {
  it('does not crash on a reset of 9e12', async () => {
    const { get } = gatedProbe();
    nock(PROBE).get('/api/a').reply(200, [], { 'x-quota-remaining': '0', 'x-quota-reset': '9000000000000' });
    await get('/a');
    const refused = errorOf(await get('/a'));
    expect(refused.message).toMatch(/quota is spent for another 86400 s/);
  });

  it('lets one request probe once the word it acted on is older than it would wait', async () => {
    const { clock, get, resetIn } = gatedProbe();
    const reset = resetIn(50 * 60);
    nock(PROBE)
      .get('/api/a')
      .reply(200, [], { 'x-quota-remaining': '0', 'x-quota-reset': String(reset) });
    await get('/a');
    expect((await get('/a')).ok).toBe(false);
    clock.advance(61_000);
    nock(PROBE)
      .get('/api/a')
      .reply(200, [], { 'x-quota-remaining': '99', 'x-quota-reset': String(reset) });
    const probeResult = await get('/a');
    expect(probeResult.ok).toBe(true);
    expect((await get('/a')).stats.rateLimitWaits).toBe(0);
  });
});
