import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/errors/index.js';
import { baseScope } from '../../../src/http/exchange.js';
import { followRedirects } from '../../../src/http/follow-redirects.js';
import { errorOf, PROBE, probeAttempt, probeOutgoing } from '../../support/probe-transport.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const follow = () => followRedirects(probeAttempt().send, baseScope(`${PROBE}/api`));

describe('followRedirects: the base-URL rule decides where credentials go', () => {
  it('follows a redirect under the base URL with credentials, adding up the hops', async () => {
    const scope = nock(PROBE, { reqheaders: { authorization: 'Bearer probe-key-0001' } })
      .get('/api/old')
      .reply(301, '', { location: '/api/new' })
      .get('/api/new')
      .reply(200, { ok: true });
    const result = await follow()(probeOutgoing({ method: 'GET', path: '/old' }));
    expect(scope.isDone()).toBe(true);
    expect(result).toMatchObject({ ok: true, answer: { status: 200, body: { ok: true } } });
    expect(result.stats.attempts).toBe(2);
  });

  it('follows a read out of the base URL without credentials', async () => {
    nock(PROBE).get('/api/file').reply(302, '', { location: 'https://cdn.example/file' });
    const cdn = nock('https://cdn.example', { badheaders: ['authorization'] })
      .get('/file')
      .reply(200, 'bytes', { 'content-type': 'text/plain' });
    const result = await follow()(probeOutgoing({ method: 'GET', path: '/file' }));
    expect(cdn.isDone()).toBe(true);
    expect(result).toMatchObject({ ok: true, answer: { body: 'bytes' } });
  });

  it('treats another path on the same host as outside the base URL', async () => {
    nock(PROBE).get('/api/file').reply(302, '', { location: '/other-tenant/file' });
    const other = nock(PROBE, { badheaders: ['authorization'] })
      .get('/other-tenant/file')
      .reply(200, {});
    await follow()(probeOutgoing({ method: 'GET', path: '/file' }));
    expect(other.isDone()).toBe(true);
  });

  it('refuses to follow a write out of the base URL', async () => {
    nock(PROBE).delete('/api/things/1').reply(307, '', { location: 'https://elsewhere.example/x' });
    const result = await follow()(probeOutgoing({ method: 'DELETE', path: '/things/1' }));
    expect(result.ok).toBe(false);
    const error = (result as { error: ProviderError }).error;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.message).toMatch(
      /redirected outside the connection's base URL \(https:\/\/elsewhere\.example\)/,
    );
  });

  it('continues a POST answered 303 as a GET without body or content type', async () => {
    nock(PROBE).post('/api/jobs').reply(303, '', { location: '/api/jobs/7' });
    const job = nock(PROBE, { badheaders: ['content-type'] })
      .get('/api/jobs/7', (body) => body === '' || body === undefined)
      .reply(200, { id: 7 });
    const result = await follow()(probeOutgoing({ method: 'POST', path: '/jobs', body: { a: 1 } }));
    expect(job.isDone()).toBe(true);
    expect(result).toMatchObject({ ok: true, answer: { method: 'GET', body: { id: 7 } } });
  });

  it('gives up after five redirects', async () => {
    nock(PROBE).get('/api/loop').times(6).reply(302, '', { location: '/api/loop' });
    const result = await follow()(probeOutgoing({ method: 'GET', path: '/loop' }));
    expect((result as { error: Error }).error.message).toBe('GET /loop redirected more than 5 times.');
    expect(result.stats.attempts).toBe(6);
  });
});

describe('redirects carry nothing of ours', () => {
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
