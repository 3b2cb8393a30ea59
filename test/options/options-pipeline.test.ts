import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { buildManifest } from '../../src/catalog/manifest.js';
import { Registry } from '../../src/catalog/registry.js';
import { isToolstepsError } from '../../src/errors/index.js';
import { fixedOptions, MAX_OPTION_ITEMS, OPTIONS_CACHE_TTL_MS } from '../../src/kit/index.js';
import { ManualClock } from '../../src/model/clock.js';
import { resolveOptions } from '../../src/options/resolve-options.js';
import { Runtime, type RuntimeOptions } from '../../src/runtime/runtime.js';
import { defineStep } from '../../src/step/define-step.js';
import { MemoryConnectionStore } from '../../src/store/memory/memory-connection-store.js';
import { nockedFetch } from '../support/nocked-fetch.js';
import { PROBE, probe, probeConnection } from '../support/probe-transport.js';
import { aboutTestStep } from '../support/test-step.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const KEY = 'probe-key-0001';
const Owners = z.object({ owners: z.array(z.object({ id: z.number(), name: z.string() })) });

/** A step whose `owner` comes from the probe's `/owners`, searchable and paged; `team` narrows it. */
const assignThing = defineStep({
  id: 'probe.assign_thing',
  ...aboutTestStep(probe, 'Assign Thing', 'Assigns a thing to an owner.'),
  input: z.strictObject({
    team: z.enum(['red', 'blue']).optional(),
    owner: z.number().int(),
    size: z.string().optional(),
  }),
  output: z.object({ ok: z.boolean() }),
  access: 'write',
  idempotent: true,
  options: {
    owner: {
      dependsOn: ['team'],
      searchable: true,
      async load(request, { http, limit }) {
        const answer = await http.request({
          method: 'GET',
          path: '/owners',
          query: { q: request.query, after: request.cursor, team: request.input.team, limit: String(limit) },
        });
        const body = answer.body as { next?: string };
        return {
          items: Owners.parse(answer.body).owners.map((owner) => ({ value: owner.id, label: owner.name })),
          ...(body.next ? { next_cursor: body.next } : {}),
        };
      },
    },
    size: fixedOptions(
      Array.from({ length: 130 }, (_, index) => ({ value: `s${index}`, label: `Size ${index}` })),
    ),
  },
  run: async () => ({ ok: true }),
});

const registry = new Registry().registerIntegration(probe).registerStep(assignThing);

function probeRuntime(options: RuntimeOptions = {}) {
  const clock = new ManualClock();
  const runtime = new Runtime({
    clock,
    store: new MemoryConnectionStore([probeConnection()]),
    transport: { fetch: nockedFetch },
    retry: { random: () => 0.5 },
    ...options,
  });
  return { runtime, clock };
}

const options = (runtime: Runtime, call: Parameters<Registry['options']>[3] = {}) =>
  registry.options(runtime, 'probe.assign_thing', 'owner', { connection: 'probe-main', ...call });

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('options through the step pipeline', () => {
  it('answers the resolver’s choices, with the connection’s auth and the depended-on input on the wire', async () => {
    const scope = nock(PROBE, { reqheaders: { authorization: `Bearer ${KEY}` } })
      .get('/api/owners')
      .query({ q: 'sa', team: 'red', limit: String(MAX_OPTION_ITEMS) })
      .reply(200, { owners: [{ id: 7, name: 'Sam' }], next: 'c2' });
    const { runtime } = probeRuntime();
    const answer = await options(runtime, { query: 'sa', input: { team: 'red', owner: 99 } });
    expect(answer).toEqual({ items: [{ value: 7, label: 'Sam' }], next_cursor: 'c2', truncated: false });
    expect(scope.isDone()).toBe(true);
  });

  it('keeps an answer for the TTL per connection, field, query, cursor and input, and asks again after', async () => {
    let asked = 0;
    nock(PROBE)
      .get('/api/owners')
      .query(true)
      .times(4)
      .reply(200, () => ({ owners: [{ id: ++asked, name: 'n' }] }));
    const { runtime, clock } = probeRuntime();
    await options(runtime, { query: 'a' });
    expect((await options(runtime, { query: 'a' })).items[0]?.value).toBe(1);
    expect(asked).toBe(1);
    await options(runtime, { query: 'b' });
    await options(runtime, { query: 'a', input: { team: 'blue' } });
    await options(runtime, { query: 'a', cursor: 'c2' });
    expect(asked).toBe(4);
    clock.advance(OPTIONS_CACHE_TTL_MS + 1);
    nock(PROBE).get('/api/owners').query(true).reply(200, { owners: [] });
    expect((await options(runtime, { query: 'a' })).items).toEqual([]);
  });

  it('keeps answers apart per tenant: another tenant on the same runtime asks the provider itself', async () => {
    const scope = nock(PROBE).get('/api/owners').query(true).times(2).reply(200, { owners: [] });
    const { runtime } = probeRuntime();
    const step = registry.requireStep('probe.assign_thing');
    const tenant = (name: string) => ({
      invoke: runtime.invoke.bind(runtime),
      answers: runtime.answers,
      tenant: name,
    });
    await resolveOptions(tenant('one'), step, 'owner', { connection: 'probe-main' });
    await resolveOptions(tenant('one'), step, 'owner', { connection: 'probe-main' });
    await resolveOptions(tenant('two'), step, 'owner', { connection: 'probe-main' });
    expect(scope.isDone()).toBe(true);
  });

  it('keeps no failure: a 500 retried to the end fails, and the next call asks again', async () => {
    nock(PROBE).get('/api/owners').query(true).reply(500, { message: 'down' });
    const { runtime } = probeRuntime({ retry: { random: () => 0.5, maxRetries: 0 } });
    const error = await caught(options(runtime));
    expect(error).toMatchObject({ code: 'provider_error' });
    nock(PROBE)
      .get('/api/owners')
      .query(true)
      .reply(200, { owners: [{ id: 1, name: 'Back' }] });
    expect((await options(runtime)).items).toEqual([{ value: 1, label: 'Back' }]);
  });
});

describe('options from a hostile provider', () => {
  it('an answer that is not a list is an OutputError, not a crash or an empty dropdown', async () => {
    nock(PROBE).get('/api/owners').query(true).reply(200, { owners: 'none today' });
    const error = await caught(options(probeRuntime().runtime));
    expect(isToolstepsError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'output_invalid', retryable: true });
  });

  it('more than the cap is cut to MAX_OPTION_ITEMS and says so', async () => {
    const owners = Array.from({ length: 250 }, (_, id) => ({ id, name: `Owner ${id}` }));
    nock(PROBE).get('/api/owners').query(true).reply(200, { owners });
    const answer = await options(probeRuntime().runtime);
    expect(answer.items).toHaveLength(MAX_OPTION_ITEMS);
    expect(answer.truncated).toBe(true);
  });

  it('a body over the cap fails as too large, read no further', async () => {
    nock(PROBE)
      .get('/api/owners')
      .query(true)
      .reply(200, { owners: [{ id: 1, name: 'x'.repeat(200_000) }] });
    const error = await caught(options(probeRuntime({ maxResponseBytes: 64 * 1024 }).runtime));
    expect(error).toMatchObject({ code: 'response_too_large' });
  });

  it('an answer that never comes fails at the request deadline', async () => {
    nock(PROBE).get('/api/owners').query(true).delay(5_000).reply(200, { owners: [] });
    const error = await caught(
      options(probeRuntime({ requestTimeoutMs: 200, retry: { maxRetries: 0 } }).runtime),
    );
    expect(error).toMatchObject({ code: 'timeout' });
  }, 20_000);

  it('a label that echoes the connection’s key is redacted, and so is an error that quotes it', async () => {
    nock(PROBE)
      .get('/api/owners')
      .query(true)
      .reply(200, { owners: [{ id: 1, name: `key ${KEY}` }] });
    const { runtime } = probeRuntime();
    const answer = await options(runtime, { query: 'echo' });
    expect(JSON.stringify(answer)).not.toContain(KEY);
    nock(PROBE)
      .get('/api/owners')
      .query(true)
      .reply(400, { message: `bad key ${KEY}` });
    const error = await caught(options(runtime, { query: 'error' }));
    expect(JSON.stringify(error)).not.toContain(KEY);
    expect(String((error as Error).message)).not.toContain(KEY);
  });
});

describe('bad options calls send nothing', () => {
  it('a field without options, a bad depended-on value, a long query and no connection are input errors', async () => {
    const { runtime } = probeRuntime();
    const call = (field: string, extra: Record<string, unknown>) =>
      caught(registry.options(runtime, 'probe.assign_thing', field, extra));
    expect(await call('team', { connection: 'probe-main' })).toMatchObject({
      code: 'input_invalid',
      message: expect.stringContaining('Fields with options: owner, size'),
    });
    expect(await call('owner', { connection: 'probe-main', input: { team: 'green' } })).toMatchObject({
      code: 'input_invalid',
      fields: [expect.objectContaining({ path: 'input.team' })],
    });
    expect(await call('owner', { connection: 'probe-main', query: 'q'.repeat(201) })).toMatchObject({
      code: 'input_invalid',
    });
    expect(await call('owner', {})).toMatchObject({
      code: 'input_invalid',
      fields: [{ path: 'connection' }],
    });
    expect(nock.pendingMocks()).toEqual([]);
  });
});

describe('a closed list', () => {
  it('answers without a connection or a request, searched and paged by the same surface', async () => {
    const { runtime } = probeRuntime();
    const first = await registry.options(runtime, 'probe.assign_thing', 'size');
    expect(first.items).toHaveLength(MAX_OPTION_ITEMS);
    expect(first.next_cursor).toBe(String(MAX_OPTION_ITEMS));
    const rest = await registry.options(runtime, 'probe.assign_thing', 'size', { cursor: first.next_cursor });
    expect(rest.items).toHaveLength(30);
    expect(rest.next_cursor).toBeUndefined();
    const found = await registry.options(runtime, 'probe.assign_thing', 'size', { query: 'SIZE 12' });
    expect(found.items.map((item) => item.value)).toEqual([
      's12',
      's120',
      's121',
      's122',
      's123',
      's124',
      's125',
      's126',
      's127',
      's128',
      's129',
    ]);
  });
});

describe('where options are declared', () => {
  it('the manifest marks each field with options in its JSON Schema', () => {
    const step = buildManifest(registry).steps[0]!;
    const properties = step.input.properties as Record<string, Record<string, unknown>>;
    expect(properties.owner!['x-toolsteps-options']).toEqual({
      dependsOn: ['team'],
      searchable: true,
      fixed: false,
    });
    expect(properties.size!['x-toolsteps-options']).toEqual({ dependsOn: [], searchable: true, fixed: true });
    expect(properties.team!['x-toolsteps-options']).toBeUndefined();
  });

  it('defineStep refuses options on a field the input does not have, or depending on one', () => {
    const base = {
      ...aboutTestStep(probe, 'Bad', 'Bad.'),
      input: z.object({ a: z.string() }),
      output: z.object({}),
      access: 'read' as const,
      idempotent: true,
      run: async () => ({}),
    };
    const load = async () => ({ items: [] });
    expect(() => defineStep({ ...base, id: 'probe.bad_one', options: { b: { load } } as never })).toThrow(
      /not a field of the input/,
    );
    expect(() =>
      defineStep({ ...base, id: 'probe.bad_two', options: { a: { load, dependsOn: ['zz'] } } as never }),
    ).toThrow(/depend on "zz"/);
  });
});
