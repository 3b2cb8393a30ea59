import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemorySubscriptionStore } from '../../src/store/memory/memory-subscription-store.js';
import { findOrphanWebhooks } from '../../src/triggers/orphan-webhooks.js';
import { TriggerSubscriptions } from '../../src/triggers/trigger-subscriptions.js';
import { createRegistry } from '../../steps/index.js';
import { type ContractFixture, contractFixture } from './support/contract-fixture.js';
import { expectConforming } from './support/provider-contracts.js';

let fx: ContractFixture;
let manager: TriggerSubscriptions;
beforeAll(async () => {
  fx = await contractFixture();
  manager = new TriggerSubscriptions({
    triggers: createRegistry(),
    runtime: fx.runtime,
    subscriptions: new MemorySubscriptionStore(),
    entitlements: { plan: 'enterprise' },
    clock: fx.clock,
  });
});
afterAll(() => fx.close());

/** What provisioning and removal sent, and what the sandbox answered. */
async function exchangesOf(work: () => Promise<unknown>) {
  const from = fx.recorder.exchanges.length;
  await work();
  return fx.recorder.exchanges.slice(from);
}

const target = 'http://127.0.0.1:9';

/** What subscribing `trigger` on `connection` and then removing the subscription sent, and the answers. */
function subscribeAndRemove(trigger: string, connection: string, setup?: Record<string, unknown>) {
  return exchangesOf(async () => {
    const subscription = await manager.create({ trigger, connection, target, ...(setup ? { setup } : {}) });
    await manager.remove(subscription.id);
  });
}

describe('trigger provisioning against the provider descriptions (requests and the sandbox answers)', () => {
  it('ticketing event webhook: create, signing secret, delete', async () => {
    const exchanges = await subscribeAndRemove('ticketing.ticket_created', 'tickets');
    expect(exchanges.map((exchange) => exchange.method)).toEqual(['POST', 'GET', 'DELETE']);
    expectConforming(exchanges);
  });

  it('ticketing business rule: webhook, secret, POST /api/v2/triggers, then rule and webhook deleted', async () => {
    const exchanges = await subscribeAndRemove('ticketing.ticket_priority_changed', 'tickets', {
      to_priorities: ['urgent'],
      delivery: 'business_rule',
    });
    expect(exchanges.map((exchange) => `${exchange.method} ${exchange.path.replace(/^\/acme/, '')}`)).toEqual(
      [
        expect.stringMatching(/^POST \/api\/v2\/webhooks$/),
        expect.stringMatching(/^GET \/api\/v2\/webhooks\/\w+\/signing_secret$/),
        'POST /api/v2/triggers.json',
        expect.stringMatching(/^DELETE \/api\/v2\/triggers\/\d+\.json$/),
        expect.stringMatching(/^DELETE \/api\/v2\/webhooks\/\w+$/),
      ],
    );
    expectConforming(exchanges);
  });

  it('ticketing: the rule lookup of an interrupted provisioning', async () => {
    const exchanges = await exchangesOf(() =>
      fx.invoke('ticketing.api_call', { method: 'GET', endpoint: '/api/v2/triggers.json?page[size]=100' }),
    );
    expectConforming(exchanges);
  });

  it('deployments webhook: create with teamId, delete', async () => {
    const exchanges = await subscribeAndRemove('deployments.deployment_failed', 'deploys-team');
    expect(exchanges.map((exchange) => exchange.method)).toEqual(['POST', 'DELETE']);
    expectConforming(exchanges);
  });

  it('finding webhooks by URL (a lost answer, orphans): List Webhooks of both providers', async () => {
    const exchanges = await exchangesOf(() =>
      findOrphanWebhooks({
        runtime: fx.runtime,
        triggers: createRegistry(),
        subscriptions: [],
        bases: [target],
      }),
    );
    expect(exchanges.map((exchange) => `${exchange.method} ${exchange.path.split('?')[0]}`)).toEqual([
      'GET /acme/api/v2/webhooks',
      'GET /v1/webhooks',
      'GET /v1/webhooks',
    ]);
    expectConforming(exchanges);
  });
});
