import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ProviderError } from '../../src/errors/index.js';
import { defineStep } from '../../src/step/define-step.js';
import { expectRecovered, invokeOnProbe, lostCreate, lostDelete } from '../support/lost-writes.js';
import { findThingByKey, PROBE, probe, Thing } from '../support/probe-transport.js';
import { aboutTestStep } from '../support/test-step.js';

/**
 * A write the runtime settles (gone_means_done, reconcile) is the run-step
 * stage's outcome, kept out of band: steps written here catch every failure
 * of their own request, and the runtime's verdict must hold all the same.
 */

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const about = aboutTestStep(probe, 'Probe', 'A test-only step with its own try/catch.');

const Removed = z.object({ id: z.number(), already_done: z.boolean() });

/** Swallows whatever its DELETE fails with, then tries to write an audit entry. */
const swallowingDelete = defineStep({
  ...about,
  id: 'probe.remove_quietly',
  input: z.object({ id: z.number() }),
  output: Removed,
  access: 'destructive',
  idempotent: true,
  replay: { mode: 'gone_means_done', alreadyDone: (input) => ({ id: input.id, already_done: true }) },
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
    replay: { mode: 'reconcile', find: findThingByKey },
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

const invoke = invokeOnProbe;

describe('a settled replay is the stage’s outcome, whatever the step’s own catch does', () => {
  it('gone_means_done: the replay’s 404 is our work even when the step swallowed it', async () => {
    lostDelete(5);
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
    await expectRecovered(swallowingCreate, 'k1', 9);
  });

  it('reconcile: the found thing wins over the error the step threw in its own words', async () => {
    await expectRecovered(wrappingCreate, 'k2', 10);
  });

  it('reconcile: when the look finds nothing, the step’s own handling stands', async () => {
    lostCreate('k3');
    const placeholder = await invoke(swallowingCreate, { key: 'k3' });
    expect(placeholder.output).toEqual({ thing: { id: 0, key: 'k3' }, recovered: false });
    lostCreate('k3');
    await expect(invoke(wrappingCreate, { key: 'k3' })).rejects.toMatchObject({
      message: 'Could not create k3.',
    });
  });
});
