import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { NetworkError, NotFoundError, type ToolstepsError } from '../../src/errors/index.js';
import { defineStep } from '../../src/step/define-step.js';
import { expectRecovered, invokeOnProbe, lostCreate, lostDelete, reset } from '../support/lost-writes.js';
import { findThingByKey, PROBE, probe, Thing } from '../support/probe-transport.js';
import { aboutTestStep } from '../support/test-step.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const deleteThing = defineStep({
  id: 'probe.delete_thing',
  ...aboutTestStep(probe, 'Delete Thing', 'Deletes a thing.'),
  input: z.object({ id: z.number() }),
  output: z.object({ id: z.number(), already_done: z.boolean() }),
  access: 'destructive',
  idempotent: true,
  replay: { mode: 'gone_means_done', alreadyDone: (input) => ({ id: input.id, already_done: true }) },
  async run(input, { http }) {
    await http.request({ method: 'DELETE', path: `/things/${input.id}` });
    return { id: input.id, already_done: false };
  },
});

const createThing = defineStep({
  id: 'probe.create_thing',
  ...aboutTestStep(probe, 'Create Thing', 'Creates a thing with a caller key.'),
  input: z.object({ key: z.string() }),
  output: z.object({ thing: Thing, recovered: z.boolean() }),
  access: 'write',
  idempotent: false,
  replay: {
    mode: 'reconcile',
    find: findThingByKey,
    hint: (input) => `Look for a thing with key ${input.key} before creating it again.`,
  },
  async run(input, { http }) {
    const response = await http.request({ method: 'POST', path: '/things', body: { key: input.key } });
    return { thing: Thing.parse(response.body), recovered: false };
  },
});

/** Creates a thing with no key to find it by: a create that may have landed can only be refused. */
const addThing = defineStep({
  id: 'probe.add_thing',
  ...aboutTestStep(probe, 'Add Thing', 'Adds a thing; the provider gives it a key.'),
  input: z.object({ note: z.string() }),
  output: z.object({ thing: Thing }),
  access: 'write',
  idempotent: false,
  replay: { mode: 'refuse', hint: (input) => `List things noted "${input.note}" before adding it again.` },
  async run(input, { http }) {
    const response = await http.request({ method: 'POST', path: '/things', body: { note: input.note } });
    return { thing: Thing.parse(response.body) };
  },
});

const invoke = invokeOnProbe;

describe("replay 'refuse'", () => {
  it('sends a write that may have landed once, and fails as unknown with the step’s own hint', async () => {
    const scope = nock(PROBE).post('/api/things').replyWithError(reset());
    const error = (await invoke(addThing, { note: 'n1' }).catch((e) => e)) as ToolstepsError;
    expect(scope.isDone()).toBe(true);
    expect(error).toMatchObject({ code: 'network_error', outcome: 'unknown', retryable: false });
    expect(error.hint).toBe('List things noted "n1" before adding it again.');
    expect(error.message).toContain('Outcome unknown: List things noted "n1"');
  });
});

describe("replay 'gone_means_done'", () => {
  it('reads a 404 that answers the replay of a lost DELETE as our own work', async () => {
    lostDelete(5);
    const result = await invoke(deleteThing, { id: 5 });
    expect(result.output).toEqual({ id: 5, already_done: true });
    expect(result.meta.attempts).toBe(2);
  });

  it('leaves a 404 to a first attempt as not found: nothing of ours was there', async () => {
    nock(PROBE).delete('/api/things/6').reply(404, { message: 'no such thing' });
    await expect(invoke(deleteThing, { id: 6 })).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("replay 'reconcile'", () => {
  it('finds the thing a lost create made, instead of failing or creating another', async () => {
    await expectRecovered(createThing, 'k1', 9);
  });

  it('fails as possibly applied, with the step’s own hint, when the look finds nothing', async () => {
    lostCreate('k2');
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

describe('a step still declared in the deprecated fields (onReplay, alreadyDone, reconcile, checkHint)', () => {
  /** As integrations written before `replay` declare it: the same steps as above, in the old fields. */
  const oldCreateThing = defineStep({
    id: 'probe.create_thing_old',
    ...aboutTestStep(probe, 'Create Thing', 'Creates a thing with a caller key.'),
    input: createThing.input,
    output: createThing.output,
    access: 'write',
    idempotent: false,
    onReplay: 'reconcile',
    reconcile: findThingByKey,
    checkHint: (input) => `Look for a thing with key ${input.key} before creating it again.`,
    run: createThing.run,
  });
  // A defined step carries the four fields (what the runtime reads): spread, it is a definition in the old form.
  const oldDeleteThing = defineStep({
    ...deleteThing,
    id: 'probe.delete_thing_old',
    onReplay: 'gone_means_done',
    alreadyDone: (input) => ({ id: input.id, already_done: true }),
  });

  it('is settled as before: found by its look, done when the replay’s 404 says so, with its own hint', async () => {
    await expectRecovered(oldCreateThing, 'k5', 11);
    lostDelete(7);
    expect((await invoke(oldDeleteThing, { id: 7 })).output).toEqual({ id: 7, already_done: true });
    lostCreate('k6');
    const error = (await invoke(oldCreateThing, { key: 'k6' }).catch((e) => e)) as ToolstepsError;
    expect(error).toMatchObject({
      outcome: 'unknown',
      hint: 'Look for a thing with key k6 before creating it again.',
    });
  });
});

describe('deprecated declarations that cannot work are refused when the step is defined', () => {
  const base = {
    ...aboutTestStep(probe, 'x', 'x'),
    input: z.object({}),
    output: z.object({}),
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
