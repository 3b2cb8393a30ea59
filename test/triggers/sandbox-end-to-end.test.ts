import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/index.js';
import {
  addSandboxDeployments,
  addSandboxTicketing,
  type CliWorld,
  cli,
  closeCliWorld,
  openCliWorld,
  stopListening,
} from '../cli/cli-harness.js';
import { freePort, untilListening } from '../support/ports.js';
import { statusSubscriptionArgs } from './trigger-fixtures.js';

/**
 * The whole story over real sockets, through the CLI: the sandbox is the
 * provider (webhook API and signed deliveries), `triggers create` provisions
 * there, `listen` receives, and a step run through `run` makes the change.
 */
let world: CliWorld;
let sandbox: Sandbox;
beforeAll(async () => {
  // Retries a few milliseconds apart, so the provider's retry of a refused delivery comes quickly.
  world = await openCliWorld('toolsteps-e2e-triggers-', { webhooks: { firstRetryMs: 20 } });
  sandbox = world.sandbox;
});
afterAll(() => closeCliWorld(world, 'TS_E2E_TOKEN', 'TS_E2E_DEPLOY_TOKEN'));

/** A call to the provider's own API, as its web app would make it. */
async function provider(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${sandbox.baseUrl('ticketing', 'acme')}${path}`, {
    method,
    headers: { authorization: `Bearer ${process.env.TS_E2E_TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status}`);
  return response.json();
}

/** The webhooks the provider holds, read through its own API. */
async function webhooksAtProvider(): Promise<{ endpoint: string; subscriptions: string[] }[]> {
  const answer = (await provider('GET', '/api/v2/webhooks')) as {
    webhooks: { endpoint: string; subscriptions: string[] }[];
  };
  return answer.webhooks;
}

/** A delivery sent again by hand (a replay, an alteration), as an attacker or a provider retry would send it. */
function postDelivery(url: string, body: string, headers: Record<string, string>): Promise<Response> {
  return fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
}

async function json(...args: string[]) {
  const result = await cli(...args, '--json');
  if (result.code !== 0) throw new Error(`${args.join(' ')} failed: ${result.out}${result.err}`);
  return JSON.parse(result.out);
}

describe('ticketing trigger against the sandbox, through the CLI', () => {
  it('a status change starts exactly one event; replayed, altered, unsigned and oversized deliveries start nothing', async () => {
    const added = await addSandboxTicketing(sandbox, 'desk', 'TS_E2E_TOKEN');
    expect(added.code).toBe(0);
    const port = await freePort();
    const subscription = await json(...statusSubscriptionArgs(port));
    expect(subscription.url).toBe(`http://127.0.0.1:${port}/hooks/${subscription.id}`);
    const [webhook] = await webhooksAtProvider();
    expect(webhook).toMatchObject({
      endpoint: subscription.url,
      subscriptions: ['zen:event-type:ticket.status_changed'],
    });

    const listening = cli('listen', '--port', String(port), '--json');
    await untilListening(port);
    // Someone changes the ticket at the provider (the CLI's stdout belongs to listen meanwhile).
    const created = await provider('POST', '/api/v2/tickets.json', {
      ticket: { subject: 'Printer on fire', comment: { body: 'Room 3.' } },
    });
    const ticketId = (created as { ticket: { id: number } }).ticket.id;
    await provider('PUT', `/api/v2/tickets/${ticketId}.json`, { ticket: { status: 'solved' } });
    await sandbox.webhooks.settle();
    const [delivery] = sandbox.webhooks.deliveries.filter(
      (item) => item.eventType === 'zen:event-type:ticket.status_changed',
    );
    expect(delivery?.attempts.map((attempt) => attempt.status)).toEqual([200]);

    // The same delivery again, as an attacker or a provider retry would send it.
    const headers = delivery!.sign(delivery!.body, Date.now(), false);
    const send = (body: string, sent: Record<string, string>) => postDelivery(subscription.url, body, sent);
    const replayed = await send(delivery!.body, headers);
    const altered = await send(delivery!.body.replace('Printer on fire', 'Printer on firf'), headers);
    const { 'x-zendesk-webhook-signature': _dropped, ...unsigned } = headers;
    const dropped = await send(delivery!.body, unsigned);
    const oversized = await send(`${delivery!.body}${' '.repeat(300 * 1024)}`, headers);
    const { events } = await stopListening(listening);

    expect([replayed.status, altered.status, dropped.status, oversized.status]).toEqual([200, 401, 401, 413]);
    expect(await replayed.json()).toMatchObject({ status: 'duplicate' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      subscription: subscription.id,
      trigger: 'ticketing.ticket_status_changed',
      variables: { ticket_id: String(ticketId), subject: 'Printer on fire' },
    });

    expect((await cli('triggers', 'remove', subscription.id)).code).toBe(0);
    expect(await webhooksAtProvider()).toEqual([]);
  });

  it('a duplicated delivery starts once, and a wrongly signed one starts on the provider’s retry', async () => {
    const port = await freePort();
    const subscription = await json(
      'triggers',
      'create',
      'ticketing.ticket_priority_changed',
      '--connection',
      'desk',
      '--target',
      `http://127.0.0.1:${port}`,
    );
    const listening = cli('listen', '--port', String(port), '--json');
    await untilListening(port);
    sandbox.webhooks.reset();
    sandbox.webhookFaults.add({ kind: 'duplicate', target: 'ticketing', count: 1 });
    const created = await provider('POST', '/api/v2/tickets.json', {
      ticket: { subject: 'Slow page', comment: { body: 'It is slow.' }, priority: 'low' },
    });
    const ticketId = (created as { ticket: { id: number } }).ticket.id;
    await provider('PUT', `/api/v2/tickets/${ticketId}.json`, { ticket: { priority: 'high' } });
    sandbox.webhookFaults.add({ kind: 'bad_signature', target: 'ticketing', count: 1 });
    await provider('PUT', `/api/v2/tickets/${ticketId}.json`, { ticket: { priority: 'urgent' } });
    for (let round = 0; round < 100 && sandbox.webhooks.pending().length; round += 1) {
      await sandbox.webhooks.settle();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const result = await stopListening(listening);
    const statuses = sandbox.webhooks.deliveries
      .filter((item) => item.eventType === 'zen:event-type:ticket.priority_changed')
      .map((item) => item.attempts.map((attempt) => attempt.status));
    // The two copies of one event arrive together: one is handled, the other finds it in flight
    // (409, so the provider tries again) or already done (200 duplicate); either way it starts nothing.
    expect(statuses).toHaveLength(3);
    for (const attempts of statuses.slice(0, 2)) expect([[200], [409, 200]]).toContainEqual(attempts);
    expect(statuses[2]).toEqual([401, 200]);
    // Event payloads spell enums in capitals, as the provider does.
    expect(result.events.map((event) => event.variables.priority)).toEqual(['HIGH', 'URGENT']);
    expect(result.err).toContain('"code":"duplicate"');
    expect(result.err).toContain('"code":"bad_signature"');
    expect((await cli('triggers', 'remove', subscription.id)).code).toBe(0);
  });
});

describe('deployment webhook against the sandbox, through the CLI', () => {
  const deploymentsApi = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${sandbox.baseUrl('deployments')}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${process.env.TS_E2E_DEPLOY_TOKEN}`,
        'content-type': 'application/json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown> | unknown[];
  };

  it('a new deployment of the scoped project starts exactly one event; its replay starts nothing', async () => {
    const added = await addSandboxDeployments(sandbox, 'deploys', 'TS_E2E_DEPLOY_TOKEN');
    expect(added.code).toBe(0);
    const web = (await deploymentsApi('GET', '/v9/projects/web')) as { id: string };
    const port = await freePort();
    const subscription = await json(
      'triggers',
      'create',
      'deployments.deployment_started',
      '--connection',
      'deploys',
      '--target',
      `http://127.0.0.1:${port}`,
      '--constraint',
      `projects=${web.id}`,
    );
    const listening = cli('listen', '--port', String(port), '--json');
    await untilListening(port);
    sandbox.webhooks.reset();
    for (const project of ['web', 'api']) {
      await deploymentsApi('POST', '/v13/deployments', {
        name: project,
        project,
        gitSource: { type: 'github', org: 'ada', repo: project, ref: 'main' },
      });
    }
    await sandbox.webhooks.settle();
    const deliveries = sandbox.webhooks.deliveries.filter((item) => item.source === 'deployments');
    expect(deliveries.map((item) => item.attempts.map((attempt) => attempt.status))).toEqual([[200]]);
    const [delivery] = deliveries;
    const headers = delivery!.sign(delivery!.body, Date.now(), false);
    const send = (body: string, sent: Record<string, string>) => postDelivery(subscription.url, body, sent);
    const replayed = await send(delivery!.body, headers);
    const altered = await send(delivery!.body.replace('"web"', '"wex"'), headers);
    const dropped = await send(delivery!.body, {});
    const oversized = await send(`${delivery!.body}${' '.repeat(300 * 1024)}`, headers);
    const { events } = await stopListening(listening);
    expect([replayed.status, altered.status, dropped.status, oversized.status]).toEqual([200, 401, 401, 413]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      trigger: 'deployments.deployment_started',
      variables: { project: web.id, name: 'web', state: 'deployment.created' },
    });
    expect(await deploymentsApi('GET', '/v1/webhooks')).toEqual([
      expect.objectContaining({
        url: subscription.url,
        events: ['deployment.created'],
        projectIds: [web.id],
      }),
    ]);
    expect((await cli('triggers', 'remove', subscription.id)).code).toBe(0);
    expect(await deploymentsApi('GET', '/v1/webhooks')).toEqual([]);
  });
});
