import pg from 'pg';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseTenantId } from '../../../src/model/tenant-id.js';
import { acmeConnection } from '../../support/acme-connection.js';
import { asSuperuser, postgresSuiteEnabled, usePostgresStores } from '../../support/test-postgres.js';

const enabled = await postgresSuiteEnabled();
const [a, b] = [parseTenantId('acme'), parseTenantId('globex')];

/**
 * A stored connection's lookup runs on every invocation: it must stay one
 * round trip (the tenant and the read in one simple query), counted on
 * node-postgres's own client, and still see only its tenant's rows.
 */
describe.skipIf(!enabled)('a Postgres lookup is one round trip (Postgres)', () => {
  const suite = usePostgresStores('lookup_round_trips');

  beforeAll(async () => {
    await suite.stores.forTenant(a).connections.put(acmeConnection('support', 'token-of-acme'));
    await suite.stores.forTenant(b).connections.put(acmeConnection('own', 'token-of-globex'));
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('get sends one query, which sets the tenant and reads the record with its data key', async () => {
    const connections = suite.stores.forTenant(a).connections;
    await connections.get('support');
    const sent = vi.spyOn(pg.Client.prototype, 'query');
    const found = await connections.get('support');
    expect(found?.secrets.accessToken).toBe('token-of-acme');
    expect(sent).toHaveBeenCalledTimes(1);
    expect(String(sent.mock.calls[0]?.[0])).toMatch(
      /^SELECT set_config\('app\.tenant', 'acme', true\); SELECT /,
    );
  });

  it("another tenant's id reads as missing, and so does an id made of quotes and backslashes", async () => {
    const connections = suite.stores.forTenant(b).connections;
    expect(await connections.get('support')).toBeUndefined();
    expect(await connections.get("own' OR true --")).toBeUndefined();
    expect(await connections.get("\\' OR true --")).toBeUndefined();
    expect((await connections.get('own'))?.secrets.accessToken).toBe('token-of-globex');
  });

  it('a record a lookup opened before is still refused once changed in the store', async () => {
    const connections = suite.stores.forTenant(a).connections;
    await connections.put(acmeConnection('edited'));
    expect((await connections.get('edited'))?.id).toBe('edited');
    await asSuperuser(
      suite.database.name,
      `UPDATE toolsteps.connections SET public_json = replace(public_json, '"acme"', '"evil"') WHERE id = 'edited'`,
    );
    await expect(connections.get('edited')).rejects.toMatchObject({ problem: 'altered' });
  });
});
