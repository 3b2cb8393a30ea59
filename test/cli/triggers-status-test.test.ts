import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TriggerEvent } from '../../src/model/trigger-event.js';
import { FileDedupeStore } from '../../src/store/files/file-dedupe-store.js';
import { FileSubscriptionStore } from '../../src/store/files/file-subscription-store.js';
import { createIntake } from '../../src/triggers/intake/intake.js';
import { toNodeListener } from '../../src/triggers/intake/node-listener.js';
import { createRegistry } from '../../steps/index.js';
import { addSandboxDeployments, addSandboxTicketing, cli, jsonError, useCliWorld } from './cli-harness.js';

/**
 * `triggers test` and `triggers status` against the sandbox, over real
 * sockets: the sandbox provisions the webhooks, sends the test delivery,
 * and a real intake on a loopback port receives it.
 */

const world = useCliWorld('toolsteps-cli-trigger-checks-', { env: ['TS_TC_TICKETING', 'TS_TC_DEPLOY'] });
let receiver: Server;
let target: string;
const started: TriggerEvent[] = [];

beforeAll(async () => {
  const desk = await addSandboxTicketing(world.sandbox, 'desk', 'TS_TC_TICKETING');
  const vercel = await addSandboxDeployments(
    world.sandbox,
    'vercel',
    'TS_TC_DEPLOY',
    '--team-id',
    'team_acme',
  );
  expect([desk.code, vercel.code]).toEqual([0, 0]);
  const intake = createIntake({
    subscriptions: new FileSubscriptionStore(world.home),
    dedupe: new FileDedupeStore(world.home),
    triggers: createRegistry(),
    handler: (event) => {
      started.push(event);
    },
  });
  receiver = createServer(toNodeListener(intake));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  if (receiver.listening) await new Promise((resolve) => receiver.close(resolve));
});

async function subscribe(trigger: string, connection: string, ...flags: string[]): Promise<string> {
  const created = await cli(
    'triggers',
    'create',
    trigger,
    '--connection',
    connection,
    '--target',
    target,
    ...flags,
    '--json',
  );
  expect(created.code, created.out).toBe(0);
  return JSON.parse(created.out).id as string;
}

describe('triggers test', () => {
  it('ticketing: the provider delivers the example, signed; the intake starts it with the variables shown', async () => {
    const id = await subscribe('ticketing.ticket_status_changed', 'desk');
    const result = await cli('triggers', 'test', id, '--json');
    expect(result.code, result.out).toBe(0);
    const report = JSON.parse(result.out);
    expect(report).toMatchObject({
      subscription: id,
      trigger: 'ticketing.ticket_status_changed',
      delivery: { delivered: true, status: 200 },
      skipped: null,
      variables: { status: 'SOLVED', previous_status: 'OPEN', subject: 'Printer on fire', ticket_id: '5158' },
    });
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({
      subscription: id,
      event_id: report.event_id,
      variables: report.variables,
    });
    // The request the provider got: its test endpoint, for the saved webhook, with the payload to send.
    const asked = world.sandbox.server.requestLog.filter((entry) =>
      entry.path.includes('/api/v2/webhooks/test'),
    );
    expect(asked.at(-1)?.path).toMatch(/^\/acme\/api\/v2\/webhooks\/test\?webhook_id=\w+$/);

    // A second test is a new event: never swallowed as a duplicate.
    const again = JSON.parse((await cli('triggers', 'test', id, '--json')).out);
    expect(again.event_id).not.toBe(report.event_id);
    expect(started).toHaveLength(2);

    const human = await cli('triggers', 'test', id);
    expect(human.out).toMatch(
      /^Test delivery of toolsteps-test-\S+ to http:\/\/127\.0\.0\.1:\d+\/hooks\/sub_\w+: delivered \(HTTP 200\)/,
    );
    expect(human.out).toContain('"previous_status": "OPEN"');
  });

  it("says when the subscription's setup would skip such an event", async () => {
    const id = await subscribe(
      'ticketing.ticket_status_changed',
      'desk',
      '--setup',
      '{"to_statuses":["pending"]}',
    );
    const report = JSON.parse((await cli('triggers', 'test', id, '--json')).out);
    expect(report.skipped).toMatch(/status SOLVED is not one of pending/);
  });

  it('deployments: the provider has no test delivery; says so, offers the sandbox path, still shows the variables', async () => {
    const id = await subscribe('deployments.deployment_failed', 'vercel');
    const before = world.sandbox.server.requestLog.length;
    const result = await cli('triggers', 'test', id, '--json');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.out);
    expect(report).toMatchObject({
      delivery: null,
      variables: {
        deployment_id: 'dpl_7Hx2Lq',
        state: 'deployment.error',
        error_message: expect.any(String),
      },
    });
    expect(report.no_delivery).toContain('has no test delivery');
    expect(report.no_delivery).toContain('deployments.create_deployment');
    expect(world.sandbox.server.requestLog.length).toBe(before);
  });

  it('a receiver that is down: the delivery fails, exit 1', async () => {
    const id = await subscribe('ticketing.ticket_created', 'desk');
    await new Promise((resolve) => receiver.close(resolve));
    const result = await cli('triggers', 'test', id, '--json');
    expect(result.code).toBe(1);
    expect(JSON.parse(result.out).delivery).toMatchObject({ delivered: false });
    await new Promise<void>((resolve) => receiver.listen(Number(new URL(target).port), '127.0.0.1', resolve));
  });
});

describe('triggers status', () => {
  it("reads the provider's webhook and shows the last delivery", async () => {
    const id = await subscribe('ticketing.comment_added', 'desk');
    expect((await cli('triggers', 'test', id)).code).toBe(0);
    const result = await cli('triggers', 'status', id, '--json');
    expect(result.code).toBe(0);
    const status = JSON.parse(result.out);
    expect(status).toMatchObject({
      id,
      hasSecret: true,
      webhook: { exists: true, state: 'active', details: { endpoint: `${target}/hooks/${id}` } },
    });
    expect(Date.parse(status.lastDeliveryAt)).toBeGreaterThan(Date.parse(status.createdAt) - 1);
    expect(result.out).not.toMatch(/"secret"/);
  });

  it('deployments: exists with its events; deleted at the provider, it says GONE and exits 1', async () => {
    const id = await subscribe('deployments.deployment_started', 'vercel');
    const status = JSON.parse((await cli('triggers', 'status', id, '--json')).out);
    expect(status.webhook).toMatchObject({
      exists: true,
      state: null,
      details: { events: 'deployment.created' },
    });
    const hook = status.provider.webhook_id as string;
    const deleted = await fetch(
      `${world.sandbox.baseUrl('deployments')}/v1/webhooks/${hook}?teamId=team_acme`,
      {
        method: 'DELETE',
        headers: { authorization: `Bearer ${process.env.TS_TC_DEPLOY}` },
      },
    );
    expect(deleted.status).toBe(204);
    const gone = await cli('triggers', 'status', id);
    expect(gone.code).toBe(1);
    expect(gone.out).toContain('at the provider: GONE');
  });

  it('an unknown subscription is not found, refused like bad input (exit 2)', async () => {
    const result = await cli('triggers', 'status', 'sub_nothere00', '--json');
    expect(result.code).toBe(2);
    expect(jsonError(result).code).toBe('not_found');
  });
});
