import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANZ_DATA_SANDBOX_KEY, CONTACT_DATA_SANDBOX_KEY } from '../../sandbox/index.js';
import { type BuilderWorld, openBuilderWorld, storesOf } from './builder-fixture.js';

/**
 * A token limited to some integrations must not learn the ids of the
 * tenant's other connections. Creating a connection with an id is where it
 * could: an id held by a hidden connection would answer "already exists"
 * where a free one succeeds. Such a token does not choose ids, so every
 * chosen id gets the same answer, hidden, visible or free, and nothing
 * stored is overwritten.
 */
describe('connection ids and a token limited to some integrations', () => {
  let world: BuilderWorld;
  let limited: string;

  beforeAll(async () => {
    world = await openBuilderWorld();
    limited = world.token('acme', { integrations: ['contact_data', 'ticketing'] });
    // The tenant's connection of an integration the limited token does not see.
    const stored = await world.json('/v1/connections', {
      body: { integration: 'anz_data', id: 'desk', apiKey: ANZ_DATA_SANDBOX_KEY },
    });
    expect(stored.status).toBe(200);
  });
  afterAll(async () => {
    await world?.close();
  });

  it('answers a hidden id exactly as a free one, and keeps the hidden connection as it was', async () => {
    const answers = [];
    for (const id of ['desk', 'nobody-holds-this']) {
      for (const request of [
        { integration: 'contact_data', id, apiKey: CONTACT_DATA_SANDBOX_KEY },
        { integration: 'ticketing', id },
      ]) {
        const answer = await world.json('/v1/connections', { body: request, token: limited });
        answers.push({ integration: request.integration, status: answer.status, body: answer.body });
      }
    }
    expect(answers[0]).toMatchObject({ status: 400, body: { error: { code: 'input_invalid' } } });
    expect(JSON.stringify(answers[0]?.body)).not.toContain('already exists');
    // Hidden and free ids answered byte for byte alike, per integration.
    expect(answers[2]).toEqual(answers[0]);
    expect(answers[3]).toEqual(answers[1]);
    const kept = await storesOf(world).connections.get('desk');
    expect(kept).toMatchObject({ integration: 'anz_data', secrets: { apiKey: ANZ_DATA_SANDBOX_KEY } });
    expect(await storesOf(world).connections.get('nobody-holds-this')).toBeUndefined();
  });

  it('connects with an id the server makes from the integration', async () => {
    const made = await world.json('/v1/connections', {
      body: { integration: 'contact_data', apiKey: CONTACT_DATA_SANDBOX_KEY },
      token: limited,
    });
    expect(made.status).toBe(200);
    expect(made.body.connection.id).toMatch(/^contact-data-[0-9a-f]{8}$/);
    const listed = await world.json('/v1/connections', { token: limited });
    expect(listed.body.connections.map((connection: { id: string }) => connection.id)).toEqual([
      made.body.connection.id,
    ]);
  });

  it('a token that sees every integration still chooses ids, and hears of one that is taken', async () => {
    const taken = await world.json('/v1/connections', {
      body: { integration: 'contact_data', id: 'desk', apiKey: CONTACT_DATA_SANDBOX_KEY },
    });
    expect(taken.status).toBe(400);
    expect(taken.body.error.fields).toEqual([{ path: 'id', message: 'already exists' }]);
    const chosen = await world.json('/v1/connections', {
      body: { integration: 'contact_data', id: 'contacts-2', apiKey: CONTACT_DATA_SANDBOX_KEY },
    });
    expect(chosen.status).toBe(200);
    expect(chosen.body.connection.id).toBe('contacts-2');
  });
});
