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
});
