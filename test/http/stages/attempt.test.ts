import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  NetworkError,
  ProviderError,
  ResponseTooLargeError,
  TimeoutError,
} from '../../../src/errors/index.js';
import { errorOf, PROBE, probeAttempt, probeOutgoing } from '../../support/probe-transport.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('attempt: one fetch with a time limit', () => {
  it('sends headers and credentials, reads the body, and counts one attempt and its bytes', async () => {
    const scope = nock(PROBE, { reqheaders: { authorization: 'Bearer probe-key-0001', 'x-extra': 'yes' } })
      .post('/api/things', { name: 'a' })
      .reply(201, { id: 1 }, { 'x-quota-remaining': '9', 'x-quota-reset': '1767225700' });
    const { send } = probeAttempt();
    const result = await send(
      probeOutgoing({ method: 'POST', path: '/things', body: { name: 'a' }, headers: { 'x-extra': 'yes' } }),
    );
    expect(scope.isDone()).toBe(true);
    expect(result).toMatchObject({ ok: true, answer: { status: 201, body: { id: 1 }, method: 'POST' } });
    expect(result.stats).toMatchObject({ attempts: 1, retries: 0, bytes: '{"id":1}'.length });
    expect(result.stats.answers[0]?.windows[0]).toMatchObject({ remaining: 9, resetAt: 1767225700_000 });
  });

  it('never follows a redirect itself, and does not read its body', async () => {
    nock(PROBE).get('/api/old').reply(302, 'moved', { location: '/api/new' });
    const { send } = probeAttempt();
    const result = await send(probeOutgoing({ method: 'GET', path: '/old' }));
    expect(result).toMatchObject({ ok: true, answer: { status: 302, body: null } });
    expect(result.stats.bytes).toBe(0);
  });

  it('returns an error answer as an answer: classifying statuses is a later stage', async () => {
    nock(PROBE).get('/api/missing').reply(404, { message: 'nope' });
    const result = await probeAttempt().send(probeOutgoing({ method: 'GET', path: '/missing' }));
    expect(result).toMatchObject({ ok: true, answer: { status: 404, body: { message: 'nope' } } });
  });

  it('fails as a TimeoutError when no answer comes within the time limit, sent unknown', async () => {
    nock(PROBE).get('/api/slow').delay(300).reply(200, {});
    const { send } = probeAttempt();
    const result = await send({ ...probeOutgoing({ method: 'GET', path: '/slow' }), timeoutMs: 50 });
    expect(result.ok).toBe(false);
    const error = (result as { error: unknown }).error;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ code: 'timeout', sent: 'unknown', retryable: true });
    expect(result.stats).toMatchObject({ attempts: 1, answers: [] });
  });

  it('fails as a NetworkError that says nothing was sent when the connection is refused', async () => {
    nock(PROBE)
      .get('/api/down')
      .replyWithError(Object.assign(new Error('refused probe-key-0001'), { code: 'ECONNREFUSED' }));
    const result = await probeAttempt().send(probeOutgoing({ method: 'GET', path: '/down' }));
    const error = (result as { error: NetworkError }).error;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ sent: false, transportCode: 'ECONNREFUSED' });
    // The low-level message survives only redacted.
    expect((error.cause as Error).message).toContain('[redacted]');
    expect((error.cause as Error).message).not.toContain('probe-key-0001');
  });
});

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
