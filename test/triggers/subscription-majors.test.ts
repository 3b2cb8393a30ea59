import { describe, expect, it } from 'vitest';
import { MemoryDedupeStore } from '../../src/store/memory/memory-dedupe-store.js';
import { MemorySubscriptionStore } from '../../src/store/memory/memory-subscription-store.js';
import { findSubscription } from '../../src/triggers/intake/find-subscription.js';
import { servedTenants } from '../../src/triggers/intake/intake-tenants.js';
import { planSubscriptionUpgrades } from '../../src/triggers/subscription-upgrades.js';
import { TriggerSubscriptions } from '../../src/triggers/trigger-subscriptions.js';
import { nockTicketing } from '../support/nock-ticketing.js';
import { subscriptionFor } from './trigger-fixtures.js';

// A subscription made with `trigger@major` keeps that major: the intake serves it while the trigger is
// at that major and refuses its deliveries once it is not, rather than map a payload whose paths moved.

describe('a subscription saved with its trigger major', () => {
  it('keeps the major it was made with; a bare id follows the latest', async () => {
    const fx = nockTicketing();
    const subscriptions = new MemorySubscriptionStore();
    const manager = new TriggerSubscriptions({
      triggers: fx.registry,
      runtime: fx.runtime,
      subscriptions,
      entitlements: { plan: 'enterprise' },
    });
    const request = {
      connection: 'acme',
      target: 'https://hooks.example',
      manual: { secret: 'whsec-test-1' },
    };
    const pinned = await manager.create({ ...request, trigger: 'ticketing.ticket_created@1' });
    const latest = await manager.create({ ...request, trigger: 'ticketing.ticket_created' });
    expect([pinned.trigger, latest.trigger]).toEqual([
      'ticketing.ticket_created@1',
      'ticketing.ticket_created',
    ]);
    expect((await subscriptions.get(pinned.id))?.trigger).toBe('ticketing.ticket_created@1');
    await expect(manager.create({ ...request, trigger: 'ticketing.ticket_created@2' })).rejects.toMatchObject(
      {
        code: 'input_invalid',
        fields: [{ path: 'version', message: 'unknown major; available: 1' }],
      },
    );
  });

  it('is served at intake while its major is the trigger’s, and refused once it is not', async () => {
    const store = new MemorySubscriptionStore();
    await store.put(subscriptionFor('ticketing.ticket_created@1', { id: 'sub_00000000000000a1' }));
    // As a subscription made on a major 2 that a downgrade (or a removed major) no longer serves.
    await store.put(subscriptionFor('ticketing.ticket_created@2', { id: 'sub_00000000000000a2' }));
    const tenants = servedTenants({ subscriptions: store, dedupe: new MemoryDedupeStore() });
    const { registry } = nockTicketing();
    expect(await findSubscription('/hooks/sub_00000000000000a1', tenants, registry)).toMatchObject({
      subscription: { id: 'sub_00000000000000a1', trigger: 'ticketing.ticket_created@1' },
      trigger: { id: 'ticketing.ticket_created' },
    });
    expect(await findSubscription('/hooks/sub_00000000000000a2', tenants, registry)).toMatchObject({
      refusal: { status: 401, code: 'trigger_unavailable' },
    });
  });

  it('plans an earlier major served by migration as an upgrade, its mapping rewritten over the new defaults', () => {
    const { registry } = nockTicketing();
    const [plan] = planSubscriptionUpgrades(
      [
        subscriptionFor('ticketing.ticket_assigned@1', {
          id: 'sub_00000000000000c1',
          mapping: { who: '$.event.current', was: '$.event.previous.name', anywhere: '$..current' },
        }),
      ],
      registry,
    );
    expect(plan).toMatchObject({
      action: 'upgrade',
      to: 'ticketing.ticket_assigned@2',
      mapping: { who: '$.event.assignee_id', was: '$.event.previous_assignee_id.name' },
      unmatched: [{ variable: 'anywhere', path: '$..current' }],
    });
    expect(plan?.mapping).not.toHaveProperty('assignee');
  });

  it('plans an upgrade per subscription: pin a bare id, keep the current major, flag one not served or unknown', () => {
    const { registry } = nockTicketing();
    const plan = planSubscriptionUpgrades(
      [
        subscriptionFor('ticketing.ticket_created', { id: 'sub_00000000000000b1' }),
        subscriptionFor('ticketing.ticket_created@1', { id: 'sub_00000000000000b2' }),
        subscriptionFor('ticketing.ticket_created@2', { id: 'sub_00000000000000b3' }),
        subscriptionFor('ticketing.gone', { id: 'sub_00000000000000b4' }),
      ],
      registry,
    );
    expect(plan.map((entry) => [entry.action, entry.to])).toEqual([
      ['pin', 'ticketing.ticket_created@1'],
      ['current', undefined],
      ['not_served', undefined],
      ['unknown_trigger', undefined],
    ]);
  });
});
