import { describe, expect, it } from 'vitest';
import { closeAfterEach } from '../../support/fixture-lifecycle.js';
import { type AnzDataFixture, anzDataFixture } from './anz-data-fixture.js';

describe('anz_data per-minute quota', () => {
  let fx: AnzDataFixture;
  closeAfterEach(() => fx);

  it('the emulator answers with RateLimit headers and a 429 with Retry-After once the minute is spent', async () => {
    fx = await anzDataFixture({ sandbox: { anzData: { requestsPerMinute: 2 } } });
    const call = () =>
      fetch(`${fx.sandbox.baseUrl('anz-data')}/credits`, {
        headers: { authorization: `Bearer ${fx.apiKey}` },
      });
    const first = await call();
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-limit')).toBe('2');
    expect(first.headers.get('ratelimit-remaining')).toBe('1');
    expect(Number(first.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    expect((await call()).status).toBe(200);
    const refused = await call();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(refused.headers.get('ratelimit-reset'));
    expect(await refused.json()).toEqual({
      error: { code: 'rate_limited', message: 'Rate limit of 2 requests per minute exceeded.' },
    });
    // A new minute refills the quota.
    fx.clock.advance(60_000);
    expect((await call()).status).toBe(200);
  });

  it('the rate gate reads the headers and waits for the next minute instead of earning a 429', async () => {
    fx = await anzDataFixture({ sandbox: { anzData: { requestsPerMinute: 2 } } });
    for (const domain of ['kiwiorchard.example', 'kaurisoftware.example', 'tasmanfintech.example']) {
      const result = await fx.invoke('anz_data.enrich_company', { domain });
      expect(result.output).toMatchObject({ matched: true });
    }
    const third = await fx.invoke('anz_data.api_call', { method: 'GET', endpoint: '/credits' });
    expect(third.output).toMatchObject({ status: 200, body: { credits_used: 3 } });
    expect(fx.sent()).toHaveLength(4);
    expect(fx.clock.sleeps.length).toBeGreaterThan(0);
    expect(third.meta.rateLimit?.windows[0]).toMatchObject({ name: 'minute', limit: 2 });
  });

  it('a 429 the gate did not foresee (another client on the key) is waited out and retried', async () => {
    fx = await anzDataFixture({ sandbox: { anzData: { requestsPerMinute: 1 } } });
    // Someone else spends this minute's quota on the same key.
    await fetch(`${fx.sandbox.baseUrl('anz-data')}/credits`, {
      headers: { authorization: `Bearer ${fx.apiKey}` },
    });
    const result = await fx.invoke('anz_data.enrich_person', { profile_slug: 'mia-thompson' });
    expect(result.meta).toMatchObject({ attempts: 2, retries: 1, credits: { charged: 1 } });
    expect(fx.clock.sleeps[0]).toBe(60_000);
    expect(fx.sandbox.anzData.ledger.spent(fx.apiKey)).toBe(1);
  });
});
