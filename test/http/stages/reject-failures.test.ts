import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ProviderError, RateLimitError } from '../../../src/errors/index.js';
import { rejectFailures } from '../../../src/http/classify-failures.js';
import { defineIntegration, type Integration } from '../../../src/model/define-integration.js';
import { PROBE, probe, probeAttempt, probeConnection, probeOutgoing } from '../../support/probe-transport.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

/** The probe transport behind rejectFailures, classifying with `integration` (the probe's own by default). */
function classifying(integration: Integration = probe) {
  const { send, clock } = probeAttempt();
  return rejectFailures(send, {
    integration,
    redact: (text) => text.split('probe-key-0001').join('[redacted]'),
    secrets: () => ['probe-key-0001'],
    now: () => clock.now(),
    connection: () => probeConnection(),
    canRefresh: true,
  });
}

describe('rejectFailures: answers outside 2xx become errors of the family', () => {
  it("keeps the provider's words, redacted, with one full stop", async () => {
    nock(PROBE).post('/api/things').reply(422, { message: 'key probe-key-0001 may not do this...' });
    const result = await classifying()(probeOutgoing({ method: 'POST', path: '/things', body: {} }));
    expect((result as { error: unknown }).error).toMatchObject({
      code: 'provider_rejected',
      status: 422,
      sent: true,
      providerMessage: 'key [redacted] may not do this',
      message: 'POST /things was rejected by the provider (422): key [redacted] may not do this.',
    });
  });

  it('reads Retry-After into a RateLimitError', async () => {
    nock(PROBE).get('/api/things').reply(429, { message: 'slow' }, { 'retry-after': '4' });
    const result = await classifying()(probeOutgoing({ method: 'GET', path: '/things' }));
    const error = (result as { error: RateLimitError }).error;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterMs).toBe(4000);
  });

  it('passes 2xx answers through with their stats', async () => {
    nock(PROBE).get('/api/things').reply(200, [1]);
    const result = await classifying()(probeOutgoing({ method: 'GET', path: '/things' }));
    expect(result).toMatchObject({ ok: true, answer: { body: [1] }, stats: { attempts: 1 } });
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
    const result = await classifying(cutting)(probeOutgoing({ method: 'GET', path: '/x' }));
    const error = (result as { error: ProviderError }).error;
    expect(error.providerMessage).toBe('token is [redacted]');
    expect(JSON.stringify(error)).not.toContain('probe-key');
  });
});
