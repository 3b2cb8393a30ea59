import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FaultRule } from '../../sandbox/index.js';
import type { TicketingWebhook } from '../../sandbox/ticketing/ticketing-hooks.js';
import { MemorySubscriptionStore } from '../../src/store/memory/memory-subscription-store.js';
import { findOrphanWebhooks, pruneOrphanWebhooks } from '../../src/triggers/orphan-webhooks.js';
import { TriggerSubscriptions } from '../../src/triggers/trigger-subscriptions.js';
import { createRegistry } from '../../steps/index.js';
import { flipFault } from '../support/faults.js';
import { type SandboxFixture, sandboxFixture } from '../support/sandbox-fixture.js';

/**
 * The answer to a webhook's creation is lost after the provider made it
 * (connection reset after sending, a gateway's 502), injected through the
 * sandbox's control endpoint. Provisioning finds the webhook again by the
 * URL that names the subscription, instead of making a second one or
 * leaving it behind; removal says what it found; orphans are listed and
 * pruned, and only they.
 */
const TARGET = 'http://127.0.0.1:9/agents';
let fx: SandboxFixture;
let subscriptions: MemorySubscriptionStore;
let manager: TriggerSubscriptions;
const registry = createRegistry();

beforeAll(async () => {
  fx = await sandboxFixture({
    connections: (sandbox) => [
      {
        id: 'desk',
        integration: 'ticketing',
        kind: 'oauth2_no_refresh',
        fields: { subdomain: 'acme', baseUrl: sandbox.baseUrl('ticketing', 'acme') },
        secrets: { accessToken: sandbox.ticketing.issueTokens('acme').access_token },
      },
      {
        id: 'deploys',
        integration: 'deployments',
        kind: 'oauth2_no_refresh',
        fields: { baseUrl: sandbox.baseUrl('deployments') },
        secrets: { accessToken: sandbox.deployments.issueToken(1) },
      },
    ],
  });
});
afterAll(() => fx.close());

afterEach(async () => {
  fx.sandbox.faults.clear();
  for (const { id } of await subscriptions.list()) await manager.remove(id).catch(() => undefined);
  fx.sandbox.ticketing.account('acme').webhooks.clear();
  fx.sandbox.ticketing.account('acme').triggers.clear();
  fx.sandbox.deployments.world.scope('user_ada').webhooks.clear();
});

function freshManager(): void {
  subscriptions = new MemorySubscriptionStore();
  manager = new TriggerSubscriptions({
    triggers: registry,
    runtime: fx.runtime,
    subscriptions,
    entitlements: { plan: 'enterprise' },
    clock: fx.clock,
  });
}

const fault = (rule: FaultRule) => flipFault(fx.sandbox, rule);

/** Subscribes `trigger` on `connection` (desk, ticketing; deploys, deployments) for the agents' target. */
const subscribe = (trigger: string, connection: string, setup?: Record<string, unknown>) =>
  manager.create({ trigger, connection, target: TARGET, ...(setup ? { setup } : {}) });

/** The answer to the next create is lost once the provider has made it. */
const answerLost = (target: string, pathIncludes: string, how: 'reset' | 'gateway' = 'reset'): FaultRule => ({
  target,
  method: 'POST',
  pathIncludes,
  count: 1,
  action: how === 'reset' ? { kind: 'reset', when: 'after' } : { kind: 'status', status: 502, when: 'after' },
});

/** Listing the provider's webhooks fails for a while (every retry too): the look after the loss cannot be made. */
const listingDown = (target: string, pathIncludes: string): FaultRule => ({
  target,
  method: 'GET',
  pathIncludes,
  count: 20,
  action: { kind: 'status', status: 500 },
});

/**
 * A fresh manager subscribes `trigger` on `connection` while the provider
 * (the trigger's integration) loses the answer to the create at `webhooks`
 * and fails the look for the webhook too: the call fails with its outcome
 * unknown and leaves the subscription behind. Then the provider answers
 * again. Returns the error and the subscription left.
 */
async function lostAndNotFound(trigger: string, connection: string, webhooks: string) {
  const provider = trigger.split('.')[0]!;
  freshManager();
  await fault(answerLost(provider, webhooks));
  await fault(listingDown(provider, webhooks));
  const error: unknown = await subscribe(trigger, connection).catch((caught: unknown) => caught);
  expect(error).toMatchObject({ outcome: 'unknown' });
  fx.sandbox.faults.clear();
  const [left, ...more] = await subscriptions.list();
  expect(more).toEqual([]);
  return { error, left: left! };
}

/** How many creates of this kind the provider was sent. */
const creates = (mount: string, path: RegExp) =>
  fx.requests(mount).filter((entry) => entry.method === 'POST' && path.test(entry.path)).length;

const ticketingWebhooks = () => [...fx.sandbox.ticketing.account('acme').webhooks.values()];
const ticketingRules = () => [...fx.sandbox.ticketing.account('acme').triggers.values()];
const deploymentWebhooks = () => [...fx.sandbox.deployments.world.scope('user_ada').webhooks.values()];

/**
 * What every recovery must end with: exactly one webhook at the provider,
 * the subscription ready on it, and the store holding that webhook's secret.
 * Returns the webhook.
 */
async function expectOneWebhookFor<Webhook extends { id: string; secret?: string }>(
  subscription: { id: string },
  webhooks: () => Webhook[],
): Promise<Webhook> {
  const all = webhooks();
  expect(all).toHaveLength(1);
  const webhook = all[0]!;
  expect(subscription).toMatchObject({ state: 'ready', provider: { webhook_id: webhook.id } });
  expect((await subscriptions.get(subscription.id))?.secret).toBe(webhook.secret);
  return webhook;
}

describe('a lost create answer, ticketing', () => {
  it('is found again in the same call by its URL: one webhook, recorded, with its secret', async () => {
    freshManager();
    const before = creates('ticketing', /\/api\/v2\/webhooks$/);
    await fault(answerLost('ticketing', '/api/v2/webhooks'));
    const subscription = await subscribe('ticketing.ticket_created', 'desk');
    expect(creates('ticketing', /\/api\/v2\/webhooks$/) - before).toBe(1);
    expect(fx.logger.lines.map((line) => line.message)).toContain(
      'Provisioning answer lost; looked for the webhook by its URL.',
    );
    const webhook = await expectOneWebhookFor(subscription, ticketingWebhooks);
    expect(webhook.endpoint).toBe(`${TARGET}/hooks/${subscription.id}`);
  });

  it('a gateway 502 after the create: the same', async () => {
    freshManager();
    await fault(answerLost('ticketing', '/api/v2/webhooks', 'gateway'));
    const subscription = await subscribe('ticketing.comment_added', 'desk');
    await expectOneWebhookFor(subscription, ticketingWebhooks);
  });

  it('when the look fails too, retrying activation adopts the webhook instead of making a second', async () => {
    const { error, left } = await lostAndNotFound('ticketing.ticket_created', 'desk', '/api/v2/webhooks');
    expect(error).toMatchObject({ code: 'network_error' });
    expect(left).toMatchObject({ state: 'provisioning', provider: {} });
    expect(ticketingWebhooks()).toHaveLength(1);

    const activated = await manager.setActive(left.id, true);
    expect(activated.active).toBe(true);
    await expectOneWebhookFor(activated, ticketingWebhooks);
  });

  it('a business rule whose answer was lost is adopted, not asked for twice', async () => {
    freshManager();
    await fault(answerLost('ticketing', '/api/v2/triggers'));
    const subscription = await subscribe('ticketing.ticket_status_changed', 'desk', {
      to_statuses: ['solved'],
      delivery: 'business_rule',
    });
    expect(fx.sandbox.faults.triggered).toBeGreaterThan(0);
    const [rule, ...more] = ticketingRules();
    expect(more).toEqual([]);
    expect(ticketingWebhooks()).toHaveLength(1);
    expect(subscription.provider).toEqual({
      webhook_id: ticketingWebhooks()[0]?.id,
      trigger_id: String(rule?.id),
    });
  });
});

describe('a lost create answer, deployments (whose secret is in that answer only)', () => {
  it('retrying activation replaces the webhook it cannot read the secret of: exactly one, secret stored', async () => {
    const { left } = await lostAndNotFound('deployments.deployment_failed', 'deploys', '/v1/webhooks');
    const [lost] = deploymentWebhooks();
    expect(deploymentWebhooks()).toHaveLength(1);

    const activated = await manager.setActive(left.id, true);
    const webhook = await expectOneWebhookFor(activated, deploymentWebhooks);
    expect(webhook.id).not.toBe(lost?.id);
  });

  it('in the same call, when the look works: exactly one', async () => {
    freshManager();
    await fault(answerLost('deployments', '/v1/webhooks', 'gateway'));
    const subscription = await subscribe('deployments.deployment_started', 'deploys');
    await expectOneWebhookFor(subscription, deploymentWebhooks);
  });
});

describe('remove says what it removed', () => {
  it('removes the webhook a lost answer left, found by URL', async () => {
    const { left } = await lostAndNotFound('deployments.deployment_failed', 'deploys', '/v1/webhooks');
    const [lost] = deploymentWebhooks();
    expect(await manager.remove(left.id)).toEqual({
      id: left.id,
      provider: 'removed',
      manual: false,
      items: [{ kind: 'webhook', id: lost?.id, outcome: 'removed' }],
    });
    expect(deploymentWebhooks()).toEqual([]);
  });

  it('already gone: the webhook was deleted in the provider settings', async () => {
    freshManager();
    const subscription = await subscribe('ticketing.ticket_created', 'desk');
    fx.sandbox.ticketing.account('acme').webhooks.clear();
    expect(await manager.remove(subscription.id)).toMatchObject({
      provider: 'already_gone',
      items: [{ kind: 'webhook', id: subscription.provider.webhook_id, outcome: 'already_gone' }],
    });
  });

  it('never provisioned: the create never reached the provider, and the look shows nothing', async () => {
    freshManager();
    await fault({ target: 'ticketing', method: 'POST', count: 1, action: { kind: 'reset', when: 'before' } });
    await fault(listingDown('ticketing', '/api/v2/webhooks'));
    await expect(subscribe('ticketing.ticket_created', 'desk')).rejects.toBeTruthy();
    fx.sandbox.faults.clear();
    const [left] = await subscriptions.list();
    expect(ticketingWebhooks()).toEqual([]);
    expect(await manager.remove(left!.id)).toEqual({
      id: left!.id,
      provider: 'never_provisioned',
      manual: false,
      items: [],
    });
  });
});

describe('orphans', () => {
  it('lists a webhook made directly at the provider that points at us, and prune deletes only it', async () => {
    freshManager();
    const ours = await subscribe('ticketing.ticket_created', 'desk');
    const made = await fetch(`${fx.sandbox.baseUrl('ticketing', 'acme')}/api/v2/webhooks`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${fx.sandbox.ticketing.issueTokens('acme').access_token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        webhook: {
          name: 'made by hand',
          endpoint: `${TARGET}/hooks/sub_0000000000000000dead`,
          subscriptions: ['zen:event-type:ticket.created'],
          http_method: 'POST',
          request_format: 'json',
          status: 'active',
        },
      }),
    });
    const orphan = ((await made.json()) as { webhook: { id: string } }).webhook;
    // Someone else's webhook, pointing elsewhere: never ours to touch.
    fx.sandbox.ticketing.account('acme').webhooks.set('elsewhere', {
      ...ticketingWebhooks()[0]!,
      id: 'elsewhere',
      endpoint: 'http://127.0.0.1:8/other/hooks/sub_0000000000000000dead',
    });
    const scope = {
      runtime: fx.runtime,
      triggers: registry,
      subscriptions: await subscriptions.list(),
      bases: [TARGET],
    };
    const scan = await findOrphanWebhooks(scope);
    expect(scan.orphans.map((item) => [item.connection, item.id, item.names])).toEqual([
      ['desk', orphan.id, 'sub_0000000000000000dead'],
    ]);
    expect(scan.unread).toEqual([]);
    const { pruned } = await pruneOrphanWebhooks(scope);
    expect(pruned.map((item) => [item.id, item.outcome])).toEqual([[orphan.id, 'removed']]);
    expect(
      ticketingWebhooks()
        .map((webhook) => webhook.id)
        .sort(),
    ).toEqual([ours.provider.webhook_id, 'elsewhere'].sort());
  });

  it('reads every page of the provider list', async () => {
    freshManager();
    const account = fx.sandbox.ticketing.account('acme');
    const template: Omit<TicketingWebhook, 'id' | 'endpoint'> = {
      name: 'stray',
      http_method: 'POST',
      request_format: 'json',
      status: 'active',
      subscriptions: ['zen:event-type:ticket.created'],
      created_at: '2026-01-01T00:00:00Z',
      created_by: '1',
      updated_at: '2026-01-01T00:00:00Z',
      secret: 'stray-secret-0123456789',
    };
    for (let index = 0; index < 130; index += 1) {
      const id = `stray${String(index).padStart(3, '0')}`;
      account.webhooks.set(id, { ...template, id, endpoint: `${TARGET}/hooks/sub_${id}0000000` });
    }
    const pages = () =>
      fx.requests('ticketing').filter((entry) => entry.path.includes('/api/v2/webhooks?')).length;
    const before = pages();
    const scan = await findOrphanWebhooks({
      runtime: fx.runtime,
      triggers: registry,
      subscriptions: [],
      bases: [TARGET],
      connection: 'desk',
    });
    expect(scan.orphans).toHaveLength(130);
    expect(pages() - before).toBe(2);
  });
});
