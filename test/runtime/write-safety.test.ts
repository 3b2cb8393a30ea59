import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ManualClock } from '../../src/clock.js';
import { NetworkError, NotFoundError, type ToolstepsError } from '../../src/errors/index.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { defineStep } from '../../src/step/define-step.js';
import { nockedFetch } from '../support/nocked-fetch.js';
import { PROBE, probe, probeConnection } from '../support/probe-transport.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const reset = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

const deleteThing = defineStep({
  id: 'probe.delete_thing',
  integration: probe,
  title: 'Delete Thing',
  description: 'Deletes a thing.',
  agentDescription: 'Deletes a thing.',
  keywords: [],
  input: z.object({ id: z.number() }),
  output: z.object({ id: z.number(), already_done: z.boolean() }),
  access: 'destructive',
  idempotent: true,
  onReplay: 'gone_means_done',
  alreadyDone: (input) => ({ id: input.id, already_done: true }),
  variables: {},
  async run(input, { http }) {
    await http.request({ method: 'DELETE', path: `/things/${input.id}` });
    return { id: input.id, already_done: false };
  },
});

const Thing = z.object({ id: z.number(), key: z.string() });
const createThing = defineStep({
  id: 'probe.create_thing',
  integration: probe,
  title: 'Create Thing',
  description: 'Creates a thing with a caller key.',
  agentDescription: 'Creates a thing.',
  keywords: [],
  input: z.object({ key: z.string() }),
  output: z.object({ thing: Thing, recovered: z.boolean() }),
  access: 'write',
  idempotent: false,
  onReplay: 'reconcile',
  async reconcile(input, { http }) {
    const found = await http.request<unknown[]>({
      method: 'GET',
      path: '/things',
      query: { key: input.key },
    });
    const thing = z.array(Thing).parse(found.body)[0];
    return thing ? { thing, recovered: true } : undefined;
  },
  checkHint: (input) => `Look for a thing with key ${input.key} before creating it again.`,
  variables: {},
  async run(input, { http }) {
    const response = await http.request({ method: 'POST', path: '/things', body: { key: input.key } });
    return { thing: Thing.parse(response.body), recovered: false };
  },
});

function invoke(step: typeof deleteThing | typeof createThing, input: unknown) {
  const runtime = new Runtime({
    clock: new ManualClock(),
    transport: { fetch: nockedFetch },
    retry: { random: () => 0.5 },
  });
  return runtime.invoke(step, { connection: probeConnection(), input });
}

describe("onReplay 'gone_means_done'", () => {
  it('reads a 404 that answers the replay of a lost DELETE as our own work', async () => {
    nock(PROBE).delete('/api/things/5').replyWithError(reset()).delete('/api/things/5').reply(404, {});
    const result = await invoke(deleteThing, { id: 5 });
    expect(result.output).toEqual({ id: 5, already_done: true });
    expect(result.meta.attempts).toBe(2);
  });

  it('leaves a 404 to a first attempt as not found: nothing of ours was there', async () => {
    nock(PROBE).delete('/api/things/6').reply(404, { message: 'no such thing' });
    await expect(invoke(deleteThing, { id: 6 })).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("onReplay 'reconcile'", () => {
  it('finds the thing a lost create made, instead of failing or creating another', async () => {
    nock(PROBE)
      .post('/api/things')
      .replyWithError(reset())
      .get('/api/things')
      .query({ key: 'k1' })
      .reply(200, [{ id: 9, key: 'k1' }]);
    const result = await invoke(createThing, { key: 'k1' });
    expect(result.output).toEqual({ thing: { id: 9, key: 'k1' }, recovered: true });
  });

  it('fails as possibly applied, with the step’s own hint, when the look finds nothing', async () => {
    nock(PROBE).post('/api/things').replyWithError(reset()).get('/api/things').query(true).reply(200, []);
    const error = (await invoke(createThing, { key: 'k2' }).catch((e) => e)) as ToolstepsError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ outcome: 'unknown', retryable: false, sent: 'unknown' });
    expect(error.hint).toBe('Look for a thing with key k2 before creating it again.');
    expect(error.message).toContain('Outcome unknown: Look for a thing with key k2');
  });

  it('keeps the write’s error, with the failed look beside it, when the look fails', async () => {
    nock(PROBE)
      .post('/api/things')
      .replyWithError(reset())
      .get('/api/things')
      .query(true)
      .times(4)
      .reply(500, { message: 'down' });
    const error = (await invoke(createThing, { key: 'k3' }).catch((e) => e)) as ToolstepsError;
    expect(error).toMatchObject({ code: 'network_error', outcome: 'unknown' });
    expect(error.context.lookup).toMatchObject({ code: 'provider_error', status: 500 });
  });

  it('does not look when the provider refused the write: it did not act', async () => {
    const scope = nock(PROBE).post('/api/things').reply(422, { message: 'key taken' });
    const error = (await invoke(createThing, { key: 'k4' }).catch((e) => e)) as ToolstepsError;
    expect(scope.isDone()).toBe(true);
    expect(error).toMatchObject({ code: 'provider_rejected', outcome: undefined });
  });
});

describe('declarations that cannot work are refused when the step is defined', () => {
  const base = {
    integration: probe,
    title: 'x',
    description: 'x',
    agentDescription: 'x',
    keywords: [],
    input: z.object({}),
    output: z.object({}),
    variables: {},
    run: async () => ({}),
  };
  it('gone_means_done needs an idempotent step and alreadyDone', () => {
    expect(() =>
      defineStep({
        ...base,
        id: 'probe.a',
        access: 'destructive',
        idempotent: false,
        onReplay: 'gone_means_done',
        alreadyDone: () => ({}),
      }),
    ).toThrow(/needs an idempotent step/);
    expect(() =>
      defineStep({
        ...base,
        id: 'probe.b',
        access: 'destructive',
        idempotent: true,
        onReplay: 'gone_means_done',
      }),
    ).toThrow(/needs alreadyDone/);
  });

  it('reconcile needs reconcile(input, ctx)', () => {
    expect(() =>
      defineStep({ ...base, id: 'probe.c', access: 'write', idempotent: false, onReplay: 'reconcile' }),
    ).toThrow(/needs reconcile/);
  });
});
