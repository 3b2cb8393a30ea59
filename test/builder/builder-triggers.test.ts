import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamedEvent } from '../../src/builder/trigger-event-hub.js';
import { type BuilderWorld, connectTicketing, openBuilderWorld, storesOf } from './builder-fixture.js';

let world: BuilderWorld;
beforeAll(async () => {
  world = await openBuilderWorld();
  await connectTicketing(world, 'desk');
});
afterAll(() => world.close());

const TRIGGER = 'ticketing.ticket_status_changed';

/** A call to the ticketing provider's own API with the stored connection's token, as its web app would make it. */
// biome-ignore lint/suspicious/noExplicitAny: the provider's answers, read field by field.
async function atProvider(method: string, path: string, body?: unknown): Promise<any> {
  const connection = await storesOf(world).connections.get('desk');
  const response = await fetch(`${world.sandbox.baseUrl('ticketing', 'acme')}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${connection!.secrets.accessToken}`,
      'content-type': 'application/json',
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status}`);
  return response.json();
}

/** An open `GET /v1/events` stream, read with fetch as a page would (EventSource cannot send the token). */
async function openStream(token?: string) {
  const controller = new AbortController();
  const response = await world.api('/v1/events', { ...(token ? { token } : {}) });
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  const events: StreamedEvent[] = [];
  const pump = (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      buffered += decoder.decode(value, { stream: true });
      for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const data = block.split('\n').find((line) => line.startsWith('data: '));
        if (block.includes('event: trigger') && data) events.push(JSON.parse(data.slice(6)));
      }
    }
  })();
  return {
    events,
    /** Waits until `count` events arrived, up to a deadline (deliveries are settled first, so this is quick). */
    async until(count: number) {
      for (let waited = 0; events.length < count && waited < 10_000; waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return events;
    },
    close: async () => {
      controller.abort();
      await reader.cancel().catch(() => undefined);
      await pump;
    },
  };
}

describe('trigger setup through the builder API', () => {
  let subscriptionId = '';

  /**
   * What a token that must not see the subscription gets: its stream receives
   * neither a test delivery made while it is the only stream open nor one
   * that a stream of the owner's token receives; it lists no subscription,
   * and every route of this one answers 404 as for an id that does not exist.
   */
  async function expectHiddenFrom(token: string) {
    const theirs = await openStream(token);
    await world.json(`/v1/subscriptions/${subscriptionId}/test`, { method: 'POST' });
    await world.sandbox.webhooks.settle();
    const own = await openStream();
    await world.json(`/v1/subscriptions/${subscriptionId}/test`, { method: 'POST' });
    await world.sandbox.webhooks.settle();
    await own.until(1);
    await Promise.all([theirs.close(), own.close()]);
    expect(own.events).toHaveLength(1);
    expect(theirs.events).toEqual([]);
    expect((await world.json('/v1/subscriptions', { token })).body).toEqual({ subscriptions: [] });
    for (const [method, path] of [
      ['GET', `/v1/subscriptions/${subscriptionId}`],
      ['POST', `/v1/subscriptions/${subscriptionId}/test`],
      ['POST', `/v1/subscriptions/${subscriptionId}/activate`],
      ['POST', `/v1/subscriptions/${subscriptionId}/deactivate`],
      ['DELETE', `/v1/subscriptions/${subscriptionId}`],
    ] as const) {
      const answer = await world.json(path, { method, token });
      expect([answer.status, answer.body.error.code], path).toEqual([404, 'not_found']);
    }
  }

  it('lists each integration’s events with payload schema, setup schema and a sample payload', async () => {
    const answer = await world.json('/v1/triggers?integration=ticketing');
    const trigger = answer.body.triggers.find((item: { id: string }) => item.id === TRIGGER);
    expect(trigger).toMatchObject({
      integration: 'ticketing',
      payload: { type: 'object' },
      setup: { type: 'object' },
      variables: { subject: '$.detail.subject', requester: '$.detail.requester_id' },
      sample: { detail: expect.any(Object) },
    });
  });

  it('creates a subscription with a mapping to the agent’s input variables, provisioned at the provider, inactive until activated', async () => {
    const created = await world.json('/v1/subscriptions', {
      body: {
        trigger: TRIGGER,
        connection: 'desk',
        mapping: { ticket_subject: '$.detail.subject', asked_by: '$.detail.requester_id' },
      },
    });
    expect(created.status).toBe(200);
    subscriptionId = created.body.id;
    expect(created.body).toMatchObject({ active: false, state: 'ready', hasSecret: true });
    expect(created.body.url).toBe(`${world.server.url}/hooks/acme/${subscriptionId}`);
    expect(JSON.stringify(created.body)).not.toContain(
      (await storesOf(world).subscriptions.get(subscriptionId))!.secret,
    );
    const status = await world.json(`/v1/subscriptions/${subscriptionId}`);
    expect(status.body).toMatchObject({ subscription: { id: subscriptionId }, provider: { exists: true } });
  });

  it('a test sends the sample through the real intake; once active, it and a real status change reach the event stream', async () => {
    const stream = await openStream();
    const inactive = await world.json(`/v1/subscriptions/${subscriptionId}/test`, { method: 'POST' });
    expect(inactive.body).toMatchObject({
      delivery: { delivered: true },
      variables: {
        ticket_subject: expect.any(String),
        asked_by: expect.anything(),
        subject: expect.any(String),
      },
    });
    expect(
      (await world.json(`/v1/subscriptions/${subscriptionId}/activate`, { method: 'POST' })).body.active,
    ).toBe(true);
    const tested = await world.json(`/v1/subscriptions/${subscriptionId}/test`, { method: 'POST' });
    expect(tested.body.delivery.delivered).toBe(true);
    const [testEvent] = await stream.until(1);
    expect(testEvent).toMatchObject({
      subscription: subscriptionId,
      eventId: tested.body.eventId,
      test: true,
    });

    const created = await atProvider('POST', '/api/v2/tickets.json', {
      ticket: { subject: 'Printer on fire', comment: { body: 'Room 3.' } },
    });
    await atProvider('PUT', `/api/v2/tickets/${created.ticket.id}.json`, { ticket: { status: 'solved' } });
    await world.sandbox.webhooks.settle();
    const events = await stream.until(2);
    await stream.close();
    expect(events[1]).toMatchObject({
      subscription: subscriptionId,
      trigger: TRIGGER,
      test: false,
      variables: {
        ticket_id: String(created.ticket.id),
        ticket_subject: 'Printer on fire',
        status: 'SOLVED',
      },
    });
    expect(events).toHaveLength(2);
  });

  it('another tenant sees none of it: its stream gets no event, and the subscription id is not found', async () => {
    await expectHiddenFrom(world.token('globex'));
    const refused = await fetch(`${world.server.url}/hooks/globex/${subscriptionId}`, {
      method: 'POST',
      body: '{}',
    });
    expect(refused.status).toBeGreaterThanOrEqual(400);
  });

  it('a stream ends when its token expires: it must not outlive what authorised it', async () => {
    const stream = await world.api('/v1/events', { token: world.token('acme', { ttlMs: 300 }) });
    const ended = await stream.text();
    expect(ended).toContain(': connected');
  });

  it('a token held to other integrations sees none of ticketing’s subscriptions or events', async () => {
    await expectHiddenFrom(world.token('acme', { integrations: ['deployments'] }));
  });

  it('a stream ends at its next event once its token is revoked, and that event is not sent', async () => {
    const token = world.token('acme');
    const stream = await world.api('/v1/events', { token });
    const text = stream.text();
    world.tokens.revoke(token);
    await world.json(`/v1/subscriptions/${subscriptionId}/test`, { method: 'POST' });
    await world.sandbox.webhooks.settle();
    const said = await text;
    expect(said).toContain(': connected');
    expect(said).not.toContain('event: trigger');
  });

  it('deactivates, then removes the webhook at the provider and the subscription', async () => {
    expect(
      (await world.json(`/v1/subscriptions/${subscriptionId}/deactivate`, { method: 'POST' })).body.active,
    ).toBe(false);
    expect((await world.json(`/v1/subscriptions/${subscriptionId}`, { method: 'DELETE' })).body).toEqual({
      id: subscriptionId,
      removed: true,
    });
    expect((await atProvider('GET', '/api/v2/webhooks')).webhooks).toEqual([]);
    expect((await world.json('/v1/subscriptions')).body).toEqual({ subscriptions: [] });
  });
});
