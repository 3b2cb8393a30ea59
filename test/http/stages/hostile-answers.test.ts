import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError, ResponseTooLargeError, TimeoutError } from '../../../src/errors/index.js';
import { rejectFailures } from '../../../src/http/classify-failures.js';
import { baseScope } from '../../../src/http/exchange.js';
import { followRedirects } from '../../../src/http/follow-redirects.js';
import { RateGate, withRateGate } from '../../../src/http/rate-gate.js';
import { defineIntegration } from '../../../src/step/define-integration.js';
import { PROBE, probe, probeAttempt, probeConnection, probeOutgoing } from '../../support/probe-transport.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const errorOf = (result: { ok: boolean }) => (result as unknown as { error: Error }).error;

describe('answers are read within a size cap and a nesting bound', () => {
  it('refuses an answer larger than the cap as it streams in, without retrying', async () => {
    const big = 'x'.repeat(70 * 1024); // the probe's cap is 64 KiB
    nock(PROBE)
      .get('/api/big')
      .reply(200, () => big, { 'content-type': 'text/plain' });
    const result = await probeAttempt().send(probeOutgoing({ method: 'GET', path: '/big' }));
    const error = errorOf(result);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({
      code: 'response_too_large',
      retryable: false,
      status: 200,
      limitBytes: 65536,
    });
  });

  it('refuses at once an answer whose Content-Length is over the cap', async () => {
    nock(PROBE)
      .get('/api/big')
      .reply(200, 'small', { 'content-length': String(10 * 1024 * 1024) });
    const result = await probeAttempt().send(probeOutgoing({ method: 'GET', path: '/big' }));
    expect(errorOf(result)).toBeInstanceOf(ResponseTooLargeError);
  });

  it('accepts more when the request says so', async () => {
    nock(PROBE)
      .get('/api/big')
      .reply(200, 'y'.repeat(70 * 1024), { 'content-type': 'text/plain' });
    const outgoing = { ...probeOutgoing({ method: 'GET', path: '/big' }), maxResponseBytes: 1024 * 1024 };
    expect((await probeAttempt().send(outgoing)).ok).toBe(true);
  });

  it('refuses JSON nested deeper than any real answer, as a ProviderError, not a stack overflow', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    nock(PROBE).get('/api/deep').reply(200, deep, { 'content-type': 'application/json' });
    const result = await probeAttempt().send(probeOutgoing({ method: 'GET', path: '/deep' }));
    expect(errorOf(result)).toBeInstanceOf(ProviderError);
    expect(errorOf(result).message).toMatch(/nested deeper than 256 levels/);
  });

  it('holds one deadline over headers and body: a body that trickles past it is a TimeoutError', async () => {
    nock(PROBE).get('/api/slow').delayBody(300).reply(200, { ok: true });
    const outgoing = { ...probeOutgoing({ method: 'GET', path: '/slow' }), timeoutMs: 100 };
    expect(errorOf(await probeAttempt().send(outgoing))).toBeInstanceOf(TimeoutError);
  });
});

describe('redirects carry nothing of ours', () => {
  const follow = () => followRedirects(probeAttempt().send, baseScope(`${PROBE}/api`));

  it('does not follow a redirect to a data: URL', async () => {
    nock(PROBE).get('/api/x').reply(302, '', { location: 'data:application/json,{"fake":true}' });
    const error = errorOf(await follow()(probeOutgoing({ method: 'GET', path: '/x' })));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.message).toMatch(/redirected to a data: URL; only http\(s\) redirects are followed/);
  });

  it('drops every caller header on a hop out of the base URL, and says the answer was redirected', async () => {
    nock(PROBE).get('/api/file').reply(302, '', { location: 'https://cdn.example/file' });
    const cdn = nock('https://cdn.example', { badheaders: ['authorization', 'x-team-secret'] })
      .get('/file')
      .reply(200, 'ok', { 'content-type': 'text/plain' });
    const result = await follow()(
      probeOutgoing({ method: 'GET', path: '/file', headers: { 'x-team-secret': 'caller-value' } }),
    );
    expect(cdn.isDone()).toBe(true);
    expect(result).toMatchObject({ ok: true, answer: { redirected: true } });
  });

  it('says an answer that was not redirected was not', async () => {
    nock(PROBE).get('/api/plain').reply(200, {});
    const result = await follow()(probeOutgoing({ method: 'GET', path: '/plain' }));
    expect(result).toMatchObject({ ok: true, answer: { redirected: false } });
  });
});

describe('provider text is redacted before an integration parser cuts it', () => {
  const SECRET = 'probe-key-0001';
  const cutting = defineIntegration({
    ...probe,
    // Like the real parsers: the provider's words, cut to a length.
    parseError: (body) => ({ message: String((body as { message?: string }).message).slice(0, 20) }),
  });

  it('leaves no prefix of a secret where the cut falls inside it', async () => {
    nock(PROBE)
      .get('/api/x')
      .reply(400, { message: `token is ${SECRET} and more` });
    const { send, clock } = probeAttempt();
    const classified = rejectFailures(send, {
      integration: cutting,
      redact: (text) => text.split(SECRET).join('[redacted]'),
      secrets: () => [SECRET],
      now: () => clock.now(),
      connection: () => probeConnection(),
      canRefresh: true,
    });
    const error = errorOf(await classified(probeOutgoing({ method: 'GET', path: '/x' }))) as ProviderError;
    expect(error.providerMessage).toBe('token is [redacted]');
    expect(JSON.stringify(error)).not.toContain('probe-key');
  });
});

describe('rate-limit headers are clamped, and a later answer corrects them', () => {
  it('does not crash on a reset of 9e12', async () => {
    const { send, clock } = probeAttempt();
    const gated = withRateGate(send, new RateGate({ clock, maxWaitMs: 60_000 }));
    nock(PROBE).get('/api/a').reply(200, [], { 'x-quota-remaining': '0', 'x-quota-reset': '9000000000000' });
    await gated(probeOutgoing({ method: 'GET', path: '/a' }));
    const refused = errorOf(await gated(probeOutgoing({ method: 'GET', path: '/a' })));
    expect(refused.message).toMatch(/quota is spent for another 86400 s/);
  });

  it('lets one request probe once the word it acted on is older than it would wait', async () => {
    const { send, clock } = probeAttempt();
    const gated = withRateGate(send, new RateGate({ clock, maxWaitMs: 60_000 }));
    const reset = Math.floor(clock.now() / 1000) + 50 * 60;
    nock(PROBE)
      .get('/api/a')
      .reply(200, [], { 'x-quota-remaining': '0', 'x-quota-reset': String(reset) });
    await gated(probeOutgoing({ method: 'GET', path: '/a' }));
    expect((await gated(probeOutgoing({ method: 'GET', path: '/a' }))).ok).toBe(false);
    clock.advance(61_000);
    nock(PROBE)
      .get('/api/a')
      .reply(200, [], { 'x-quota-remaining': '99', 'x-quota-reset': String(reset) });
    const probeResult = await gated(probeOutgoing({ method: 'GET', path: '/a' }));
    expect(probeResult.ok).toBe(true);
    expect((await gated(probeOutgoing({ method: 'GET', path: '/a' }))).stats.rateLimitWaits).toBe(0);
  });
});
