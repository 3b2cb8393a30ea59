import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deploymentsSignature } from '../../../sandbox/deployments/deployment-webhook-sender.js';
import {
  type DeploymentsFixture,
  deploymentsFixture,
  newDeployment,
} from '../../steps/deployments/deployments-fixture.js';
import { type Received, webhookReceiver } from '../webhooks/webhook-receiver.js';

/** The receiver's own check, from the provider's rule: hex HMAC-SHA1 of the raw body. */
function verifies(secret: string, delivery: Received): boolean {
  return (
    delivery.headers['x-vercel-signature'] === createHmac('sha1', secret).update(delivery.body).digest('hex')
  );
}

let fx: DeploymentsFixture;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;

async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${fx.sandbox.baseUrl('deployments')}${path}`, {
    method,
    headers: { authorization: `Bearer ${fx.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

const types = () => receiver.received.map((delivery) => JSON.parse(delivery.body).type as string);

beforeEach(async () => {
  fx = await deploymentsFixture({ teamId: 'team_acme' });
  receiver = await webhookReceiver();
});

afterEach(async () => {
  await fx.close();
  await receiver.close();
});

describe('deployments emulator webhooks', () => {
  it('signs with hex HMAC-SHA1 of the raw body (known vector)', () => {
    expect(deploymentsSignature('vercel-secret-0123456789', '{"type":"deployment.created"}')).toBe(
      '53fced0579a8e6d50d6f4822ca3667abe3d1de70',
    );
  });

  it('answers the secret only when the webhook is created, and refuses hosts other than this machine', async () => {
    const created = await api('POST', '/v1/webhooks?teamId=team_acme', {
      url: receiver.url,
      events: ['deployment.created'],
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      url: receiver.url,
      events: ['deployment.created'],
      ownerId: 'team_acme',
    });
    expect(created.body.secret).toEqual(expect.any(String));
    const listed = await api('GET', '/v1/webhooks?teamId=team_acme');
    expect(listed.body).toHaveLength(1);
    expect(listed.body[0].secret).toBeUndefined();
    expect(
      (await api('GET', `/v1/webhooks/${created.body.id}?teamId=team_acme`)).body.secret,
    ).toBeUndefined();
    const elsewhere = await api('POST', '/v1/webhooks?teamId=team_acme', {
      url: 'https://hooks.example.com/x',
      events: ['deployment.created'],
    });
    expect(elsewhere.status).toBe(400);
    expect((await api('DELETE', `/v1/webhooks/${created.body.id}?teamId=team_acme`)).status).toBe(204);
    expect((await api('GET', '/v1/webhooks?teamId=team_acme')).body).toEqual([]);
  });

  it('a deployment made by a step is announced when created and when it is ready, on the sandbox clock', async () => {
    const created = await api('POST', '/v1/webhooks?teamId=team_acme', {
      url: receiver.url,
      events: ['deployment.created', 'deployment.succeeded', 'deployment.error', 'deployment.canceled'],
      projectIds: ['shop'],
    });
    const deployment = await fx.invoke('deployments.create_deployment', {
      project: 'shop',
      branch: 'main',
    });
    await fx.sandbox.webhooks.settle();
    expect(types()).toEqual(['deployment.created']);
    const event = JSON.parse(receiver.received[0]!.body);
    expect(Object.keys(event).sort()).toEqual(['createdAt', 'id', 'payload', 'region', 'type']);
    expect(event.payload).toMatchObject({
      deployment: { id: deployment.output.deployment.id, name: 'shop' },
      project: { id: expect.stringMatching(/^prj_/) },
      team: { id: 'team_acme' },
    });
    expect(verifies(created.body.secret, receiver.received[0]!)).toBe(true);

    fx.clock.advance(60_000);
    await fx.sandbox.webhooks.settle();
    expect(types()).toEqual(['deployment.created', 'deployment.succeeded']);
    // Nothing new happened: nothing more is sent.
    await fx.sandbox.webhooks.settle();
    expect(receiver.received).toHaveLength(2);
  });

  it('a failed build and a cancelled one are announced; other projects are not', async () => {
    await api('POST', '/v1/webhooks?teamId=team_acme', {
      url: receiver.url,
      events: ['deployment.error', 'deployment.canceled'],
      projectIds: ['shop'],
    });
    await newDeployment(fx, { project: 'shop', branch: 'broken' });
    const second = await newDeployment(fx, { project: 'shop' });
    await fx.invoke('deployments.cancel_deployment', { deployment_id: second });
    await fx.invoke('deployments.api_call', {
      method: 'POST',
      path: '/v13/deployments',
      body: { name: 'docs', project: 'docs', gitSource: { type: 'gitlab', ref: 'broken', projectId: 3001 } },
    });
    await fx.sandbox.webhooks.settle();
    expect(types()).toEqual(['deployment.canceled']);
    fx.clock.advance(60_000);
    await fx.sandbox.webhooks.settle();
    expect(types()).toEqual(['deployment.canceled', 'deployment.error']);
    expect(JSON.parse(receiver.received[1]!.body).payload.deployment.errorMessage).toContain('exited with 1');
  });

  it('retries a 500 and honours the wrong-signature switch', async () => {
    const created = await api('POST', '/v1/webhooks?teamId=team_acme', {
      url: receiver.url,
      events: ['deployment.created'],
    });
    receiver.answer(500);
    fx.sandbox.webhookFaults.add({ kind: 'bad_signature', target: 'deployments', count: 1 });
    await fx.invoke('deployments.create_deployment', { project: 'shop', branch: 'main' });
    await fx.sandbox.webhooks.settle();
    fx.clock.advance(1_000);
    await fx.sandbox.webhooks.settle();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[0]!.body).toBe(receiver.received[1]!.body);
    expect(verifies(created.body.secret, receiver.received[0]!)).toBe(false);
    expect(verifies(created.body.secret, receiver.received[1]!)).toBe(true);
  });
});
