import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuilderWorld, connectTicketing, openBuilderWorld } from './builder-fixture.js';

// A draft saved on List Tickets major 1 names `ticketing.list_tickets@1`: the builder API describes and
// test-runs it as major 1 beside major 2, and says it is deprecated, with what replaces it and when.

let world: BuilderWorld;
beforeAll(async () => {
  world = await openBuilderWorld();
  await connectTicketing(world, 'desk');
});
afterAll(() => world.close());

describe('majors 1 and 2 side by side through the builder API', () => {
  it('describes major 1 as deprecated with its own schema, and major 2 as the latest', async () => {
    const old = await world.json('/v1/steps/ticketing.list_tickets@1');
    expect(old.status).toBe(200);
    expect(old.body).toMatchObject({
      id: 'ticketing.list_tickets@1',
      version: '1.0',
      reference: 'ticketing.list_tickets@1',
      majors: ['ticketing.list_tickets@2', 'ticketing.list_tickets@1'],
      deprecated: { replacement: 'ticketing.list_tickets@2', endsOn: '2027-06-30' },
    });
    expect(Object.keys(old.body.input.properties)).toEqual(
      expect.arrayContaining(['created_after', 'created_before']),
    );
    const latest = await world.json('/v1/steps/ticketing.list_tickets');
    expect(latest.body).toMatchObject({
      id: 'ticketing.list_tickets',
      version: '2.0',
      reference: 'ticketing.list_tickets@2',
      deprecated: null,
    });
    expect(Object.keys(latest.body.input.properties)).toContain('created');
    const unversioned = await world.json('/v1/steps/ticketing.create_ticket');
    expect(unversioned.body).toMatchObject({
      version: '1.0',
      majors: ['ticketing.create_ticket@1'],
      deprecated: null,
    });
  });

  it('test-runs a draft on each major with its own input and mapping, to the same tickets', async () => {
    const run = (step: string, input: unknown) =>
      world.json(`/v1/steps/${step}/test`, {
        body: {
          connection: 'desk',
          input,
          samples: { since: '2000-01-01' },
          mapping: { first: '$.tickets[0].id' },
        },
      });
    const old = await run('ticketing.list_tickets@1', { created_after: '{{since}}' });
    const latest = await run('ticketing.list_tickets', { created: { after: '{{since}}' } });
    expect([old.status, latest.status]).toEqual([200, 200]);
    expect(old.body.meta.step).toBe('ticketing.list_tickets@1');
    expect(old.body.variables.first).toEqual(expect.any(Number));
    expect(old.body.variables.first).toBe(latest.body.variables.first);
    expect(old.body.variables.ticket_ids).toEqual(latest.body.variables.ticket_ids);
  });

  it('refuses a major the step does not serve, naming the ones it does', async () => {
    const answer = await world.json('/v1/steps/ticketing.list_tickets@3');
    expect(answer.body.error).toMatchObject({
      code: 'input_invalid',
      message: expect.stringContaining('ticketing.list_tickets@2, ticketing.list_tickets@1'),
    });
  });

  it('upgrades a draft saved on major 1 through its migration, saying what changes and until when', async () => {
    const saved = { status: 'open', created_after: '{{since}}', created_before: '2030-01-01', limit: 10 };
    const answer = await world.json('/v1/steps/ticketing.list_tickets@1/upgrade', {
      body: { input: saved, mapping: { first: '$.tickets[0].id' } },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      from: 'ticketing.list_tickets@1',
      reference: 'ticketing.list_tickets@2',
      version: '2.0',
      // The placeholder is carried as written, and no default the builder never chose is added.
      input: { status: 'open', created: { after: '{{since}}', before: '2030-01-01' }, limit: 10 },
      // List Tickets' output did not change between the majors: a mapping reads the same paths.
      mapping: { first: '$.tickets[0].id' },
      moved: [],
      unmatched: [],
      changes: [{ version: '2.0', line: expect.stringContaining('`created: { after, before }`') }],
      deprecated: { replacement: 'ticketing.list_tickets@2', endsOn: '2027-06-30' },
    });
    // The upgraded draft runs on major 2 to the same tickets as the saved one on major 1.
    const run = (step: string, input: unknown) =>
      world.json(`/v1/steps/${step}/test`, {
        body: { connection: 'desk', input, samples: { since: '2000-01-01' } },
      });
    const [old, upgraded] = [
      await run('ticketing.list_tickets@1', saved),
      await run('ticketing.list_tickets@2', answer.body.input),
    ];
    expect([old.status, upgraded.status]).toEqual([200, 200]);
    expect(upgraded.body.variables.ticket_ids).toEqual(old.body.variables.ticket_ids);
  });

  it('answers a draft already on the latest major unchanged, and refuses what it cannot upgrade', async () => {
    const latest = await world.json('/v1/steps/ticketing.list_tickets/upgrade', {
      body: { input: { status: 'open' } },
    });
    expect(latest.body).toMatchObject({
      from: 'ticketing.list_tickets@2',
      reference: 'ticketing.list_tickets@2',
      input: { status: 'open' },
      changes: [],
      deprecated: null,
    });
    const unserved = await world.json('/v1/steps/ticketing.list_tickets@3/upgrade', { body: { input: {} } });
    expect([unserved.status, unserved.body.error.code]).toEqual([400, 'input_invalid']);
    const notAnObject = await world.json('/v1/steps/ticketing.list_tickets@1/upgrade', {
      body: { input: [1] },
    });
    expect(notAnObject.status).toBe(400);
    expect(notAnObject.body.error.fields).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: expect.stringContaining('input') })]),
    );
  });
});
