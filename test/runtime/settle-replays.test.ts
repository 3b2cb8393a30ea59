import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ManualClock } from '../../src/clock.js';
import { ProviderError } from '../../src/errors/index.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { type AnyStep, defineStep } from '../../src/step/define-step.js';
import { nockedFetch } from '../support/nocked-fetch.js';
import { PROBE, probe, probeConnection } from '../support/probe-transport.js';

/**
 * A write the runtime settles (gone_means_done, reconcile) is the run-step
 * stage's outcome, kept out of band: steps written here catch every failure
 * of their own request, and the runtime's verdict must hold all the same.
 */

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const reset = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

const about = {
  integration: probe,
  title: 'Probe',
  description: 'A test-only step with its own try/catch.',
  agentDescription: 'A test-only step.',
  keywords: [],
  variables: {},
};

const Removed = z.object({ id: z.number(), already_done: z.boolean() });

/** Swallows whatever its DELETE fails with, then tries to write an audit entry. */
const swallowingDelete = defineStep({
  ...about,
  id: 'probe.remove_quietly',
  input: z.object({ id: z.number() }),
  output: Removed,
  access: 'destructive',
  idempotent: true,
  onReplay: 'gone_means_done',
  alreadyDone: (input) => ({ id: input.id, already_done: true }),
  async run(input, { http }) {
    try {
      await http.request({ method: 'DELETE', path: `/things/${input.id}` });
    } catch {
      // A step that treats any failure as "nothing to delete".
    }
    try {
      await http.request({ method: 'POST', path: '/audit', body: { removed: input.id } });
    } catch {
      // Auditing is best effort.
    }
    return { id: input.id, already_done: false };
  },
});

const Thing = z.object({ id: z.number(), key: z.string() });
const Made = z.object({ thing: Thing, recovered: z.boolean() });
const ThingKey = z.object({ key: z.string() });

function creating(id: string, onFailure: (key: string, error: unknown) => z.input<typeof Made>) {
  return defineStep({
    ...about,
    id: `probe.${id}`,
    input: ThingKey,
    output: Made,
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
    async run(input, { http }) {
      try {
        const response = await http.request({ method: 'POST', path: '/things', body: { key: input.key } });
        return { thing: Thing.parse(response.body), recovered: false };
      } catch (error) {
        return onFailure(input.key, error);
      }
    },
  });
}

/** Answers a placeholder instead of failing: the kind of catch that swallowed the old thrown verdict. */
const swallowingCreate = creating('create_or_placeholder', (key) => ({
  thing: { id: 0, key },
  recovered: false,
}));

/** Turns any failure into an error of its own words: the kind of catch that wrapped the old thrown verdict. */
const wrappingCreate = creating('create_in_own_words', (key, error) => {
  throw new ProviderError(`Could not create ${key}.`, { code: 'provider_error', cause: error });
});

function invoke(step: AnyStep, input: unknown) {
  const runtime = new Runtime({
    clock: new ManualClock(),
    transport: { fetch: nockedFetch },
    retry: { random: () => 0.5 },
  });
  return runtime.invoke(step, { connection: probeConnection(), input });
}

describe('a settled replay is the stage’s outcome, whatever the step’s own catch does', () => {
  it('gone_means_done: the replay’s 404 is our work even when the step swallowed it', async () => {
    nock(PROBE).delete('/api/things/5').replyWithError(reset()).delete('/api/things/5').reply(404, {});
    const audit = nock(PROBE).post('/api/audit').reply(201, {});
    const result = await invoke(swallowingDelete, { id: 5 });
    expect(result.output).toEqual({ id: 5, already_done: true });
    expect(result.meta.attempts).toBe(2);
    // Once the runtime has decided the step's output, the handler sends nothing more.
    expect(audit.isDone()).toBe(false);
  });

  it('gone_means_done: a step that swallows a 404 to a first attempt keeps its own output', async () => {
    nock(PROBE).delete('/api/things/6').reply(404, { message: 'no such thing' });
    const audit = nock(PROBE).post('/api/audit').reply(201, {});
    const result = await invoke(swallowingDelete, { id: 6 });
    expect(result.output).toEqual({ id: 6, already_done: false });
    expect(audit.isDone()).toBe(true);
  });

  it('reconcile: the found thing wins over the placeholder the step answered', async () => {
    nock(PROBE)
      .post('/api/things')
      .replyWithError(reset())
      .get('/api/things')
      .query({ key: 'k1' })
      .reply(200, [{ id: 9, key: 'k1' }]);
    const result = await invoke(swallowingCreate, { key: 'k1' });
    expect(result.output).toEqual({ thing: { id: 9, key: 'k1' }, recovered: true });
  });

  it('reconcile: the found thing wins over the error the step threw in its own words', async () => {
    nock(PROBE)
      .post('/api/things')
      .replyWithError(reset())
      .get('/api/things')
      .query({ key: 'k2' })
      .reply(200, [{ id: 10, key: 'k2' }]);
    const result = await invoke(wrappingCreate, { key: 'k2' });
    expect(result.output).toEqual({ thing: { id: 10, key: 'k2' }, recovered: true });
  });

  it('reconcile: when the look finds nothing, the step’s own handling stands', async () => {
    nock(PROBE).post('/api/things').replyWithError(reset()).get('/api/things').query(true).reply(200, []);
    const placeholder = await invoke(swallowingCreate, { key: 'k3' });
    expect(placeholder.output).toEqual({ thing: { id: 0, key: 'k3' }, recovered: false });
    nock(PROBE).post('/api/things').replyWithError(reset()).get('/api/things').query(true).reply(200, []);
    await expect(invoke(wrappingCreate, { key: 'k3' })).rejects.toMatchObject({
      message: 'Could not create k3.',
    });
  });
});
