import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { InputError } from '../../src/errors/index.js';
import { ManualClock } from '../../src/model/clock.js';
import { defineIntegration } from '../../src/model/define-integration.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { type AnyStep, defineStep } from '../../src/step/define-step.js';
import { nockedFetch } from '../support/nocked-fetch.js';
import { PROBE, probe, probeConnection } from '../support/probe-transport.js';
import { aboutTestStep } from '../support/test-step.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const echo = defineStep({
  id: 'probe.echo',
  ...aboutTestStep(probe, 'Echo', 'Echoes.'),
  input: z.object({ value: z.json() }),
  output: z.object({ said: z.string() }),
  access: 'read',
  idempotent: true,
  async run(_input, { http }) {
    const response = await http.request<{ said: string }>({ method: 'GET', path: '/echo' });
    return response.body;
  },
});

describe('validateInput', () => {
  it('refuses input nested deeper than 256 levels as InputError, sending nothing, instead of overflowing the stack', async () => {
    let value: unknown = 'leaf';
    for (let depth = 0; depth < 20_000; depth += 1) value = [value];
    const runtime = new Runtime({ clock: new ManualClock(), transport: { fetch: nockedFetch } });
    const error = await runtime
      .invoke(echo, { connection: probeConnection(), input: { value } })
      .catch((e) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toMatch(/nested deeper than 256 levels/);
  });
});

describe('validateOutput redacts only what can hold a secret, and that always', () => {
  const KEY = 'probe-key-0001';
  const spelled = [...KEY].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  /** The output of `step` run on a fresh runtime over the probe connection with input `{value}`. */
  const outputOf = async (step: AnyStep, value: unknown = 1) => {
    const runtime = new Runtime({ clock: new ManualClock(), transport: { fetch: nockedFetch } });
    return (await runtime.invoke(step, { connection: probeConnection(), input: { value } })).output;
  };

  it('redacts a key the answer spells with JSON escapes, which its raw text does not show', async () => {
    nock(PROBE).get('/api/echo').reply(200, `{"said":"you sent ${spelled}"}`, {
      'content-type': 'application/json',
    });
    expect(await outputOf(echo)).toEqual({ said: 'you sent [redacted]' });
  });

  it('redacts a key an answer header carries into the output', async () => {
    const located = defineStep({
      ...echo,
      id: 'probe.located',
      async run(_input, { http }) {
        const response = await http.request({ method: 'GET', path: '/echo' });
        return { said: response.headers.get('location') ?? '' };
      },
    });
    nock(PROBE)
      .get('/api/echo')
      .reply(200, '{}', { location: `/next?key=${KEY}` });
    expect(await outputOf(located)).toEqual({ said: '/next?key=[redacted]' });
  });

  it('redacts a key the input held and the step echoed without asking the provider', async () => {
    const parrot = defineStep({
      ...echo,
      id: 'probe.parrot',
      run: async (input) => ({ said: String(input.value) }),
    });
    expect(await outputOf(parrot, `my ${KEY}`)).toEqual({ said: 'my [redacted]' });
  });

  it('leaves an answer that quotes no secret as the schema parsed it', async () => {
    nock(PROBE).get('/api/echo').reply(200, { said: 'probe-key is a word, probe-ke0001 is not the key' });
    expect(await outputOf(echo)).toEqual({ said: 'probe-key is a word, probe-ke0001 is not the key' });
  });
});

describe('bindConnection and the redaction set', () => {
  const oauthProbe = defineIntegration({
    id: 'oprobe',
    title: 'OAuth probe',
    description: 'A test-only OAuth provider.',
    keywords: [],
    connection: {
      kind: 'oauth2',
      fields: z.object({ clientId: z.string() }),
      requiredSecrets: ['accessToken'],
      oauth: {
        authorizeUrl: () => `${PROBE}/oauth/authorize`,
        tokenUrl: () => `${PROBE}/oauth/token`,
        tokenRequestEncoding: 'json',
        refreshes: true,
        defaultScopes: [],
      },
    },
    baseUrl: () => `${PROBE}/api`,
    authHeaders: ({ connection }) => ({ authorization: `Bearer ${connection.secrets.accessToken}` }),
    apiCall: { methods: ['GET'] },
    paths: {},
  });
  const whoami = defineStep({
    id: 'oprobe.whoami',
    ...aboutTestStep(oauthProbe, 'Who am I', 'Echoes the caller.'),
    input: z.object({}),
    output: z.object({ said: z.string() }),
    access: 'read',
    idempotent: true,
    async run(_input, { http }) {
      return (await http.request<{ said: string }>({ method: 'GET', path: '/me' })).body;
    },
  });

  it('redacts a token obtained by a refresh during the step from that step’s output', async () => {
    const clock = new ManualClock();
    const runtime = new Runtime({ clock, transport: { fetch: nockedFetch } });
    await runtime.store.put({
      id: 'op',
      integration: 'oprobe',
      kind: 'oauth2',
      fields: { clientId: 'probe-client' },
      secrets: { accessToken: 'old-access-token-1', refreshToken: 'old-refresh-token-1' },
      expiresAt: clock.now() + 3_600_000,
      createdAt: clock.now(),
      updatedAt: clock.now(),
    });
    nock(PROBE).get('/api/me').reply(401, {});
    nock(PROBE).post('/oauth/token').reply(200, {
      access_token: 'new-access-token-2',
      refresh_token: 'new-refresh-token-2',
      token_type: 'bearer',
      expires_in: 3600,
    });
    nock(PROBE, { reqheaders: { authorization: 'Bearer new-access-token-2' } })
      .get('/api/me')
      .reply(200, { said: 'you sent new-access-token-2' });
    const result = await runtime.invoke(whoami, { connection: 'op', input: {} });
    expect(result.output).toEqual({ said: 'you sent [redacted]' });
    expect(result.meta.attempts).toBe(2);
  });
});
