import { beforeAll, describe, expect, it } from 'vitest';
import { newSubscriptionId } from '../../../src/model/subscription.js';
import { parseTenantId, type TenantId } from '../../../src/model/tenant-id.js';
import { acmeConnection } from '../../support/acme-connection.js';
import { asSuperuser, postgresSuiteEnabled, usePostgresStores } from '../../support/test-postgres.js';
import { subscriptionFor } from '../../triggers/trigger-fixtures.js';

const enabled = await postgresSuiteEnabled();
const [a, b] = [parseTenantId('acme'), parseTenantId('globex')];

/** Tenant b tries to reach tenant a's records through the Postgres store: by id, by list, by lock, by a moved row. */
describe.skipIf(!enabled)('tenant isolation in the Postgres store (Postgres)', () => {
  const suite = usePostgresStores('isolation');
  const subscription = newSubscriptionId();

  beforeAll(async () => {
    const acme = suite.stores.forTenant(a);
    await acme.connections.put(acmeConnection('support', 'token-of-acme'));
    await acme.subscriptions.put(subscriptionFor('ticketing.ticket_created', { id: subscription }));
    await acme.connections.refreshJournal.write('support', {
      state: 'refused',
      spent: 'a'.repeat(32),
      at: 1,
      updatedAt: 1,
    });
  });

  const unchanged = async () => {
    expect((await suite.stores.forTenant(a).connections.get('support'))?.secrets.accessToken).toBe(
      'token-of-acme',
    );
    expect(await suite.stores.forTenant(a).subscriptions.get(subscription)).toBeDefined();
  };

  it("b cannot read, list, change or remove a's connection by its id", async () => {
    const globex = suite.stores.forTenant(b).connections;
    expect(await globex.get('support')).toBeUndefined();
    expect(await globex.list()).toEqual([]);
    const foreign = await globex.update('support', (current) => current).catch((error: unknown) => error);
    const nowhere = await globex.update('nowhere', (current) => current).catch((error: unknown) => error);
    expect(foreign).toMatchObject({ code: 'not_found' });
    // The same answer as for an id that exists nowhere, but for the id itself.
    expect((foreign as Error).message.replace('support', 'nowhere')).toBe((nowhere as Error).message);
    expect(await globex.remove('support')).toBe(false);
    expect(await globex.refreshJournal.read('support')).toBeUndefined();
    await globex.refreshJournal.clear('support');
    expect(await suite.stores.forTenant(a).connections.refreshJournal.read('support')).toMatchObject({
      state: 'refused',
    });
    await unchanged();
  });

  it("b cannot read, list, change or record a delivery on a's subscription", async () => {
    const globex = suite.stores.forTenant(b).subscriptions;
    expect(await globex.get(subscription)).toBeUndefined();
    expect(await globex.list()).toEqual([]);
    await expect(globex.recordDelivery(subscription, 5)).rejects.toMatchObject({ code: 'not_found' });
    expect(await globex.remove(subscription)).toBe(false);
    expect((await suite.stores.forTenant(a).subscriptions.get(subscription))?.lastDeliveryAt).toBeUndefined();
    await unchanged();
  });

  it('holdsSubscriptions answers for a webhook path’s tenant: a holds one, b and a stranger none', async () => {
    expect(await suite.stores.holdsSubscriptions(a)).toBe(true);
    expect(await suite.stores.holdsSubscriptions(b)).toBe(false);
    expect(await suite.stores.holdsSubscriptions(parseTenantId('nobody-here'))).toBe(false);
  });

  it('the same id in two tenants is two records, each sealed to its own tenant', async () => {
    await suite.stores.forTenant(b).connections.put(acmeConnection('support', 'token-of-globex'));
    expect((await suite.stores.forTenant(b).connections.get('support'))?.secrets.accessToken).toBe(
      'token-of-globex',
    );
    await unchanged();
    // One tenant's refresh lock does not hold the other's connection of the same id.
    const order: string[] = [];
    await suite.stores.forTenant(a).connections.withConnectionLock('support', async () => {
      await suite.stores.forTenant(b).connections.withConnectionLock('support', async () => {
        order.push('both held');
      });
    });
    expect(order).toEqual(['both held']);
    await suite.stores.forTenant(b).connections.remove('support');
  });

  it("a's row moved into b's tenant by someone with write access to the table does not open there", async () => {
    await suite.stores.forTenant(a).connections.put(acmeConnection('moved', 'token-of-acme'));
    await asSuperuser(
      suite.database.name,
      "UPDATE toolsteps.connections SET tenant = 'globex' WHERE id = 'moved'",
    );
    await expect(suite.stores.forTenant(b).connections.get('moved')).rejects.toMatchObject({
      code: 'record_tampered',
      problem: 'altered',
    });
    await asSuperuser(suite.database.name, "DELETE FROM toolsteps.connections WHERE id = 'moved'");
  });

  it('tenant ids are checked before the database is asked', () => {
    for (const bad of ['Acme', '../b', 'b/../a', '%2e%2e', '']) {
      expect(() => suite.stores.forTenant(bad as TenantId)).toThrow(
        expect.objectContaining({ code: 'input_invalid' }),
      );
    }
  });

  it('tenants() counts each tenant without opening anything; erasing one leaves the other whole', async () => {
    await suite.stores.forTenant(b).connections.put(acmeConnection('own', 'token-of-globex'));
    expect(await suite.stores.tenants()).toEqual([
      { tenant: 'acme', connections: 1, subscriptions: 1 },
      { tenant: 'globex', connections: 1, subscriptions: 0 },
    ]);
    expect(await suite.stores.eraseTenant(b)).toEqual({ tenant: 'globex', connections: 1, subscriptions: 0 });
    expect(await suite.stores.tenants()).toEqual([{ tenant: 'acme', connections: 1, subscriptions: 1 }]);
    await unchanged();
  });
});
