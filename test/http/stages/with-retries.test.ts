import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, ProviderError } from '../../../src/errors/index.js';
import { rejectFailures } from '../../../src/http/classify-failures.js';
import type { Send } from '../../../src/http/exchange.js';
import { defaultRetryOptions, withRetries } from '../../../src/http/retries.js';
import { PROBE, probe, probeAttempt, probeConnection, probeOutgoing } from '../../support/probe-transport.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

function retrying() {
  const { send, clock, logger } = probeAttempt();
  const classified: Send = rejectFailures(send, {
    integration: probe,
    redact: (text) => text,
    secrets: () => ['probe-key-0001'],
    now: () => clock.now(),
    connection: () => probeConnection(),
    canRefresh: false,
  });
  const retry = { ...defaultRetryOptions, random: () => 0.5 };
  return { send: withRetries(classified, { retry, clock, logger }), clock };
}

describe('withRetries: the retry rules, with waits on the injectable clock', () => {
  it('waits out a 503 Retry-After and counts the retry and both attempts', async () => {
    nock(PROBE)
      .get('/api/things')
      .reply(503, { message: 'busy' }, { 'retry-after': '3' })
      .get('/api/things')
      .reply(200, []);
    const { send, clock } = retrying();
    const result = await send(probeOutgoing({ method: 'GET', path: '/things' }));
    expect(result.ok).toBe(true);
    expect(clock.sleeps).toEqual([3000]);
    expect(result.stats).toMatchObject({ attempts: 2, retries: 1 });
  });

  it('never replays a non-idempotent write after a 502, and says it may have been applied', async () => {
    const scope = nock(PROBE).post('/api/things').reply(502, { message: 'bad gateway' });
    const { send } = retrying();
    const result = await send(probeOutgoing({ method: 'POST', path: '/things', body: {} }));
    expect(scope.isDone()).toBe(true);
    const error = (result as { error: ProviderError }).error;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ status: 502, retryable: false, outcome: 'unknown' });
    expect(error.hint).toMatch(/Check \(read or search\) before sending it again/);
    expect(result.stats).toMatchObject({ attempts: 1, retries: 0 });
  });

  it('replays an idempotent DELETE after a 502 and marks the 404 that answers the replay', async () => {
    nock(PROBE)
      .delete('/api/things/1')
      .reply(502, { message: 'bad gateway' })
      .delete('/api/things/1')
      .reply(404, { message: 'no such thing' });
    const { send } = retrying();
    const result = await send(probeOutgoing({ method: 'DELETE', path: '/things/1' }));
    const error = (result as { error: NotFoundError }).error;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.replayed).toBe(true);
    expect(result.stats).toMatchObject({ attempts: 2, retries: 1 });
  });

  it('does not mark a 404 that answers a first attempt', async () => {
    nock(PROBE).delete('/api/things/2').reply(404, { message: 'no such thing' });
    const result = await retrying().send(probeOutgoing({ method: 'DELETE', path: '/things/2' }));
    expect((result as { error: NotFoundError }).error.replayed).toBe(false);
  });

  it('stops after the configured number of retries', async () => {
    nock(PROBE).get('/api/flaky').times(4).reply(500, { message: 'oops' });
    const result = await retrying().send(probeOutgoing({ method: 'GET', path: '/flaky' }));
    expect(result.ok).toBe(false);
    expect(result.stats).toMatchObject({ attempts: 4, retries: 3 });
  });
});
