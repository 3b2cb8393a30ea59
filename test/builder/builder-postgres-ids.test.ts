import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANZ_DATA_SANDBOX_KEY } from '../../sandbox/index.js';
import { acmeConnection } from '../support/acme-connection.js';
import { postgresSuiteEnabled, usePostgresStores } from '../support/test-postgres.js';
import { type BuilderWorld, openBuilderWorld } from './builder-fixture.js';

const enabled = await postgresSuiteEnabled();

/** Text that names where the database is: its host, its port, or the test's own role and database. */
function namesTheDatabase(text: string, role: string): boolean {
  return /127\.0\.0\.1|localhost|5432|\/tmp\/\.s\.PGSQL/.test(text) || text.includes(role);
}

/**
 * A builder server over the Postgres store, asked with connection and
 * subscription ids no store could hold (a NUL byte, text Postgres cannot
 * take): each is answered as an id nobody holds, never a 502 naming the
 * database, and the pool keeps serving the next request.
 */
describe.skipIf(!enabled)('ids that cannot be, against a builder server on Postgres', () => {
  const suite = usePostgresStores('builder_ids', { max: 2 });
  let world: BuilderWorld;

  beforeAll(async () => {
    world = await openBuilderWorld({ tenants: suite.stores });
  });
  afterAll(async () => {
    await world?.close();
  });

  const impossible = ['%00', 'desk%00x', 'a%C0%80', '%EF%BF%BF', 'x'.repeat(65), 'd%27--'];

  it('answers a lookup of an impossible connection id 404 like an unknown id, and the pool still works', async () => {
    const unknown = await world.json('/v1/connections/nobody-holds-this', { method: 'DELETE' });
    expect(unknown.status).toBe(404);
    for (const id of impossible) {
      for (const [method, path] of [
        ['DELETE', `/v1/connections/${id}`],
        ['POST', `/v1/connections/${id}/test`],
        ['POST', `/v1/connections/${id}/reconnect`],
        ['DELETE', `/v1/subscriptions/${id}`],
        ['GET', `/v1/subscriptions/${id}`],
      ] as const) {
        const answer = await world.json(path, { method, ...(method === 'POST' ? { body: {} } : {}) });
        expect({ path, status: answer.status }).toEqual({ path, status: 404 });
        // Bytes that are not UTF-8 never match a route at all: a 404 too, before any id is read.
        expect(['not_found', id === 'a%C0%80' ? 'route_not_found' : 'not_found']).toContain(
          answer.body.error.code,
        );
        expect(namesTheDatabase(JSON.stringify(answer.body), suite.database.name)).toBe(false);
      }
      const described = await world.json(`/v1/steps/ticketing.create_ticket?connection=${id}`);
      // The query's own schema caps its length (input_invalid); anything shorter is a lookup.
      expect(described.status).toBe(id.length > 64 ? 400 : 404);
    }
    const listed = await world.json('/v1/connections');
    expect(listed.status).toBe(200);
  });

  it('refuses an impossible id in a body as input_invalid (creation) or 404 (a lookup), never 502', async () => {
    for (const id of ['\u0000', 'desk\u0000', 'caf\u00e9', '\ud800']) {
      const created = await world.json('/v1/connections', {
        body: { integration: 'anz_data', id, apiKey: ANZ_DATA_SANDBOX_KEY },
      });
      expect(created.status).toBe(400);
      expect(created.body.error.code).toBe('input_invalid');
      expect(namesTheDatabase(JSON.stringify(created.body), suite.database.name)).toBe(false);
      const tested = await world.json('/v1/steps/ticketing.create_ticket/test', {
        body: { connection: id, input: {} },
      });
      expect(tested.status).toBe(404);
      const subscribed = await world.json('/v1/subscriptions', {
        body: { trigger: 'ticketing.ticket_created', connection: id },
      });
      expect(subscribed.status).toBe(404);
    }
    const stored = await world.json('/v1/connections', {
      body: { integration: 'anz_data', id: 'anz-after', apiKey: ANZ_DATA_SANDBOX_KEY },
    });
    expect(stored.status).toBe(200);
  });

  it('the store answers an impossible id as one nobody holds, without asking the database', async () => {
    const stores = suite.stores.forTenant('acme' as never);
    expect(await stores.connections.get('desk\u0000')).toBeUndefined();
    expect(await stores.connections.remove('\u0000')).toBe(false);
    expect(await stores.subscriptions.get('sub_\u0000abcdefgh')).toBeUndefined();
    const updated = await stores.connections
      .update('\u0000', (current) => current)
      .then(
        () => undefined,
        (failure: unknown) => failure as { code?: string; message?: string },
      );
    expect(updated?.code).toBe('not_found');
    expect(updated?.message).toBe('No connection with id "\\u0000".');
    const written = await stores.connections.put({ ...acmeConnection('x'), id: 'desk\u0000' }).then(
      () => undefined,
      (failure: unknown) => failure as { code?: string },
    );
    expect(written?.code).toBe('input_invalid');
    expect(await stores.connections.get('nobody')).toBeUndefined();
  });
});
