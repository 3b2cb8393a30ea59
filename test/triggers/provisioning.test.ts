import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from '../../src/model/connection.js';
import { MemorySubscriptionStore } from '../../src/store/memory/memory-subscription-store.js';
import { TriggerSubscriptions } from '../../src/triggers/trigger-subscriptions.js';
import { ACCESS_TOKEN, HOST, nockTicketing } from '../support/nock-ticketing.js';
import { subscriptionFor } from './trigger-fixtures.js';

const DEPLOY_TOKEN = 'vercel-token-0123456789';
const deploymentsConnection: Connection = {
  id: 'deploys',
  integration: 'deployments',
  kind: 'oauth2_no_refresh',
  fields: { teamId: 'team_1' },
  secrets: { accessToken: DEPLOY_TOKEN },
  createdAt: 1,
  updatedAt: 1,
};

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

/** Expects the deletion of rule `ids.rule` and then of webhook `ids.webhook`, noting each in `order` as it comes. */
function expectRemoval(
  scope: nock.Scope,
  order: string[],
  ids: { rule: string; webhook: string },
  webhookReply: nock.ReplyFnResult = [204],
): void {
  scope
    .delete(`/api/v2/triggers/${ids.rule}.json`)
    .reply(() => {
      order.push(`rule ${ids.rule}`);
      return [204];
    })
    .delete(`/api/v2/webhooks/${ids.webhook}`)
    .reply(() => {
      order.push('webhook');
      return webhookReply;
    });
}

/** Answers the webhook's creation with `id`; the caller answers the read of its signing secret that follows. */
function answerWebhookCreation(id: string): nock.Interceptor {
  return nock(HOST)
    .post('/api/v2/webhooks')
    .reply(201, { webhook: { id } })
    .get(`/api/v2/webhooks/${id}/signing_secret`);
}

/** Answers "List Webhooks" with the given webhooks, as `remove` asks it while a record may be incomplete. */
function answerWebhookList(webhooks: { id: string; endpoint: string }[]): nock.Scope {
  return nock(HOST)
    .get('/api/v2/webhooks')
    .query({ 'page[size]': '100' })
    .reply(200, { webhooks, meta: { has_more: false, after_cursor: null } });
}

async function setup(plan = 'enterprise') {
  const fx = nockTicketing();
  await fx.store.put(deploymentsConnection);
  const subscriptions = new MemorySubscriptionStore();
  const manager = new TriggerSubscriptions({
    triggers: fx.registry,
    runtime: fx.runtime,
    subscriptions,
    entitlements: { plan },
    clock: fx.clock,
  });
  return { ...fx, subscriptions, manager };
}

describe('ticketing provisioning on the wire', () => {
  it('creates an event webhook for the event, reads its signing secret and stores it', async () => {
    const { manager, subscriptions, logger } = await setup();
    let created: { webhook: Record<string, unknown> } | undefined;
    const api = nock(HOST, { reqheaders: { authorization: `Bearer ${ACCESS_TOKEN}` } })
      .post('/api/v2/webhooks', (body) => {
        created = body;
        return true;
      })
      .reply(201, { webhook: { id: '01GD5HQ7K6ZR', status: 'active' } })
      .get('/api/v2/webhooks/01GD5HQ7K6ZR/signing_secret')
      .reply(200, { signing_secret: { algorithm: 'SHA256', secret: 'zendesk-signing-secret-1' } });
    const subscription = await manager.create({
      trigger: 'ticketing.ticket_status_changed',
      connection: 'acme',
      target: 'https://agents.example.com',
    });
    expect(api.isDone()).toBe(true);
    expect(created?.webhook).toMatchObject({
      endpoint: `https://agents.example.com/hooks/${subscription.id}`,
      http_method: 'POST',
      request_format: 'json',
      status: 'active',
      subscriptions: ['zen:event-type:ticket.status_changed'],
    });
    expect(subscription).toMatchObject({
      state: 'ready',
      provider: { webhook_id: '01GD5HQ7K6ZR' },
      active: true,
    });
    expect((await subscriptions.get(subscription.id))?.secret).toBe('zendesk-signing-secret-1');
    expect(JSON.stringify(logger.lines)).not.toContain('zendesk-signing-secret-1');
  });

  it('leaves a record remove can finish when the secret cannot be read, and remove deletes the webhook', async () => {
    const { manager, subscriptions } = await setup();
    answerWebhookCreation('wh1').reply(403, { error: 'Forbidden', description: 'no' });
    await expect(
      manager.create({
        trigger: 'ticketing.ticket_created',
        connection: 'acme',
        target: 'https://agents.example.com',
      }),
    ).rejects.toMatchObject({ code: 'permission_denied' });
    const [left] = await subscriptions.list();
    expect(left).toMatchObject({ state: 'provisioning', provider: { webhook_id: 'wh1' } });
    expect(left?.secret).toBeUndefined();
    const listed = answerWebhookList([
      { id: 'wh1', endpoint: `https://agents.example.com/hooks/${left!.id}` },
      { id: 'someone-elses', endpoint: 'https://elsewhere.example.com/hooks/x' },
    ]);
    const deleted = nock(HOST).delete('/api/v2/webhooks/wh1').reply(204);
    expect(await manager.remove(left!.id)).toEqual({
      id: left!.id,
      provider: 'removed',
      manual: false,
      items: [{ kind: 'webhook', id: 'wh1', outcome: 'removed' }],
    });
    expect(listed.isDone()).toBe(true);
    expect(deleted.isDone()).toBe(true);
    expect(await subscriptions.list()).toEqual([]);
  });

  it('removes the business rule before the webhook, and keeps what is left when a deletion fails', async () => {
    const { manager, subscriptions } = await setup();
    const id = 'sub_00000000000000c3';
    await subscriptions.put(
      subscriptionFor('ticketing.ticket_created', {
        id,
        connection: 'acme',
        provider: { webhook_id: 'wh2', trigger_id: '77' },
        secret: 'zendesk-signing-secret-2',
        createdAt: 1,
      }),
    );
    const order: string[] = [];
    expectRemoval(nock(HOST), order, { rule: '77', webhook: 'wh2' }, [400, { error: 'nope' }]);
    await expect(manager.remove(id)).rejects.toBeTruthy();
    expect(order).toEqual(['rule 77', 'webhook']);
    expect(await subscriptions.get(id)).toMatchObject({ state: 'removing', provider: { webhook_id: 'wh2' } });
    answerWebhookList([]);
    nock(HOST).delete('/api/v2/webhooks/wh2').reply(404, { error: 'RecordNotFound' });
    expect(await manager.remove(id)).toMatchObject({
      provider: 'already_gone',
      items: [{ kind: 'webhook', id: 'wh2', outcome: 'already_gone' }],
    });
    expect(await subscriptions.get(id)).toBeUndefined();
  });
});

describe('ticketing provisioning through a business rule, on the wire', () => {
  const base = {
    trigger: 'ticketing.ticket_status_changed',
    connection: 'acme',
    target: 'https://agents.example.com',
    setup: { to_statuses: ['solved', 'closed'], delivery: 'business_rule' },
  };

  it('makes a conditional_ticket_events webhook, reads its secret, then a rule whose conditions are the setup filter', async () => {
    const { manager, subscriptions } = await setup();
    const sent: Record<string, unknown>[] = [];
    const order: string[] = [];
    const api = nock(HOST, { reqheaders: { authorization: `Bearer ${ACCESS_TOKEN}` } })
      .post('/api/v2/webhooks', (body) => sent.push(body) > 0)
      .reply(() => {
        order.push('webhook');
        return [201, { webhook: { id: 'wh9' } }];
      })
      .get('/api/v2/webhooks/wh9/signing_secret')
      .reply(() => {
        order.push('secret');
        return [200, { signing_secret: { algorithm: 'SHA256', secret: 'zendesk-signing-secret-9' } }];
      })
      .post('/api/v2/triggers.json', (body) => sent.push(body) > 0)
      .reply(() => {
        order.push('rule');
        return [201, { trigger: { id: 4501, title: 'x' } }];
      });
    const subscription = await manager.create(base);
    expect(api.isDone()).toBe(true);
    expect(order).toEqual(['webhook', 'secret', 'rule']);
    const [webhook, rule] = sent as [
      { webhook: Record<string, unknown> },
      { trigger: { title: string; conditions: unknown; actions: { field: string; value: string[] }[] } },
    ];
    expect(webhook.webhook.subscriptions).toEqual(['conditional_ticket_events']);
    expect(rule.trigger.title).toBe(`toolsteps ${subscription.id}`);
    expect(rule.trigger.conditions).toEqual({
      all: [
        { field: 'update_type', operator: 'is', value: 'Change' },
        { field: 'status', operator: 'changed' },
      ],
      any: [
        { field: 'status', operator: 'value', value: 'solved' },
        { field: 'status', operator: 'value', value: 'closed' },
      ],
    });
    const [action] = rule.trigger.actions;
    expect(action?.field).toBe('notification_webhook');
    expect(action?.value[0]).toBe('wh9');
    // The body template is the event envelope the trigger's schema reads.
    expect(JSON.parse(action?.value[1] ?? '')).toMatchObject({
      type: 'zen:event-type:ticket.status_changed',
      event: { previous: null, current: '{{ticket.status}}' },
    });
    expect(await subscriptions.get(subscription.id)).toMatchObject({
      state: 'ready',
      provider: { webhook_id: 'wh9', trigger_id: '4501' },
      secret: 'zendesk-signing-secret-9',
    });
    const removal: string[] = [];
    expectRemoval(nock(HOST), removal, { rule: '4501', webhook: 'wh9' });
    await manager.remove(subscription.id);
    expect(removal).toEqual(['rule 4501', 'webhook']);
    expect(await subscriptions.list()).toEqual([]);
  });

  it('a rule whose creation answer was lost is found by the webhook it notifies, and removed before the webhook', async () => {
    const { manager, subscriptions } = await setup();
    answerWebhookCreation('wh10')
      .reply(200, { signing_secret: { algorithm: 'SHA256', secret: 'zendesk-signing-secret-10' } })
      .post('/api/v2/triggers.json')
      .replyWithError({ code: 'ECONNRESET', message: 'socket hang up' });
    await expect(manager.create(base)).rejects.toMatchObject({ retryable: false });
    const [left] = await subscriptions.list();
    expect(left).toMatchObject({
      state: 'provisioning',
      provider: { webhook_id: 'wh10', trigger_id: 'pending' },
    });
    answerWebhookList([{ id: 'wh10', endpoint: `https://agents.example.com/hooks/${left!.id}` }]);
    const removal: string[] = [];
    const lookup = nock(HOST)
      .get('/api/v2/triggers.json')
      .query({ 'page[size]': '100' })
      .reply(200, {
        triggers: [
          { id: 1, actions: [{ field: 'notification_webhook', value: ['someone-else', '{}'] }] },
          { id: 2, actions: [{ field: 'status', value: 'open' }] },
        ],
        meta: { has_more: true, after_cursor: 'c2' },
      })
      .get('/api/v2/triggers.json')
      .query({ 'page[size]': '100', 'page[after]': 'c2' })
      .reply(200, {
        triggers: [{ id: 3, actions: [{ field: 'notification_webhook', value: ['wh10', '{}'] }] }],
        meta: { has_more: false, after_cursor: 'c3' },
      });
    expectRemoval(lookup, removal, { rule: '3', webhook: 'wh10' });
    await manager.remove(left!.id);
    expect(removal).toEqual(['rule 3', 'webhook']);
    expect(await subscriptions.list()).toEqual([]);
  });

  it('only the status and priority triggers offer the rule path; the others refuse the option before sending', async () => {
    const { manager, subscriptions } = await setup();
    await expect(
      manager.create({ ...base, trigger: 'ticketing.comment_added', setup: { delivery: 'business_rule' } }),
    ).rejects.toMatchObject({ code: 'input_invalid' });
    await expect(manager.create({ ...base, setup: { delivery: 'rule' } })).rejects.toMatchObject({
      code: 'input_invalid',
      fields: [expect.objectContaining({ path: 'setup.delivery' })],
    });
    expect(await subscriptions.list()).toEqual([]);
  });
});

describe('deployments provisioning on the wire', () => {
  it('creates the webhook with teamId and projectIds, storing the secret from that answer at once', async () => {
    const { manager, subscriptions } = await setup();
    let sent: Record<string, unknown> | undefined;
    const api = nock('https://api.vercel.com', { reqheaders: { authorization: `Bearer ${DEPLOY_TOKEN}` } })
      .post('/v1/webhooks', (body) => {
        sent = body;
        return true;
      })
      .query({ teamId: 'team_1' })
      .reply(200, { id: 'hook_1', secret: 'vercel-secret-abcdef', events: ['deployment.created'] });
    const subscription = await manager.create({
      trigger: 'deployments.deployment_started',
      connection: 'deploys',
      target: 'https://agents.example.com/',
      constraints: { projects: ['prj_web'] },
    });
    expect(api.isDone()).toBe(true);
    expect(sent).toEqual({
      url: `https://agents.example.com/hooks/${subscription.id}`,
      events: ['deployment.created'],
      projectIds: ['prj_web'],
    });
    expect((await subscriptions.get(subscription.id))?.secret).toBe('vercel-secret-abcdef');
    const deleted = nock('https://api.vercel.com')
      .delete('/v1/webhooks/hook_1')
      .query({ teamId: 'team_1' })
      .reply(204);
    await manager.remove(subscription.id);
    expect(deleted.isDone()).toBe(true);
  });

  it('makes a manual subscription without calling the provider; its secret may come later', async () => {
    const { manager } = await setup();
    const subscription = await manager.create({
      trigger: 'deployments.deployment_failed',
      connection: 'deploys',
      target: 'https://agents.example.com',
      manual: { secret: 'pasted-secret-123' },
    });
    expect(subscription).toMatchObject({ manual: true, state: 'ready', provider: {} });
    const later = await manager.create({
      trigger: 'deployments.deployment_failed',
      connection: 'deploys',
      target: 'https://agents.example.com',
      manual: {},
    });
    expect(later.secret).toBeUndefined();
    expect((await manager.setSecret(later.id, ' pasted-later-456 ')).secret).toBe('pasted-later-456');
    await expect(manager.setSecret(later.id, ' ')).rejects.toMatchObject({ code: 'input_invalid' });
    await expect(
      manager.create({
        trigger: 'deployments.deployment_failed',
        connection: 'deploys',
        target: 'https://agents.example.com',
        manual: { secret: '' },
      }),
    ).rejects.toMatchObject({ code: 'input_invalid' });
    await manager.remove(subscription.id);
  });
});

describe('the plan rule and bad options', () => {
  it('refuses triggers below Enterprise with PlanError plan_required, provisioning nothing', async () => {
    const { manager, subscriptions } = await setup('pro');
    await expect(
      manager.create({
        trigger: 'ticketing.ticket_created',
        connection: 'acme',
        target: 'https://agents.example.com',
      }),
    ).rejects.toMatchObject({ name: 'PlanError', code: 'plan_required', retryable: false });
    expect(await subscriptions.list()).toEqual([]);
  });

  it('refuses a bad setup option, mapping or connection before anything is stored or sent', async () => {
    const { manager, subscriptions } = await setup();
    const base = {
      trigger: 'ticketing.ticket_status_changed',
      connection: 'acme',
      target: 'https://agents.example.com',
    };
    await expect(manager.create({ ...base, setup: { to_statuses: ['done'] } })).rejects.toMatchObject({
      code: 'input_invalid',
      fields: [expect.objectContaining({ path: 'setup.to_statuses.0' })],
    });
    await expect(manager.create({ ...base, mapping: { x: '$[' } })).rejects.toMatchObject({
      code: 'input_invalid',
    });
    await expect(manager.create({ ...base, connection: 'deploys' })).rejects.toMatchObject({
      code: 'input_invalid',
    });
    // @ts-expect-error an id the registry does not hold is a compile error too; this is the run-time refusal
    await expect(manager.create({ ...base, trigger: 'ticketing.nothing' })).rejects.toMatchObject({
      code: 'input_invalid',
    });
    expect(await subscriptions.list()).toEqual([]);
  });
});
