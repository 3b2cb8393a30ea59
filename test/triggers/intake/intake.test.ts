import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/model/clock.js';
import type { TriggerEvent } from '../../../src/model/trigger-event.js';
import { MemoryDedupeStore } from '../../../src/store/memory/memory-dedupe-store.js';
import { MemorySubscriptionStore } from '../../../src/store/memory/memory-subscription-store.js';
import { toFetchHandler } from '../../../src/triggers/intake/fetch-handler.js';
import { createIntake, type Intake } from '../../../src/triggers/intake/intake.js';
import type { IntakeRefusal } from '../../../src/triggers/intake/intake-refusal.js';
import { toNodeListener } from '../../../src/triggers/intake/node-listener.js';
import { createRegistry } from '../../../steps/index.js';
import {
  deploymentEvent,
  signDeployments,
  signTicketing,
  subscriptionFor,
  ticketStatusEvent,
} from '../trigger-fixtures.js';

const TICKETS = 'sub_00000000000000a1';
const DEPLOYS = 'sub_00000000000000b2';
const NOW = '2026-01-01T00:00:00Z';

interface Harness {
  base: string;
  started: TriggerEvent[];
  refused: IntakeRefusal[];
  clock: ManualClock;
  failNext: { count: number };
  intake: Intake;
}

let server: Server;
let harness: Harness;

beforeEach(async () => {
  const subscriptions = new MemorySubscriptionStore();
  await subscriptions.put(subscriptionFor('ticketing.ticket_status_changed', { id: TICKETS }));
  await subscriptions.put(subscriptionFor('deployments.deployment_started', { id: DEPLOYS }));
  const started: TriggerEvent[] = [];
  const refused: IntakeRefusal[] = [];
  const failNext = { count: 0 };
  const clock = new ManualClock(Date.parse(NOW));
  const intake = createIntake({
    subscriptions,
    triggers: createRegistry(),
    dedupe: new MemoryDedupeStore(clock),
    clock,
    handler: (event) => {
      if (failNext.count > 0) {
        failNext.count -= 1;
        throw new Error('agent platform unavailable');
      }
      started.push(event);
    },
    onRefused: (refusal) => refused.push(refusal),
  });
  server = createServer(toNodeListener(intake));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  harness = { base: `http://127.0.0.1:${port}`, started, refused, clock, failNext, intake };
});

afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function post(path: string, body: string, headers: Record<string, string>) {
  return fetch(`${harness.base}${path}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

const ticketBody = JSON.stringify(ticketStatusEvent());
const sendTicket = (body = ticketBody, headers: Record<string, string> = signTicketing(ticketBody, NOW)) =>
  post(`/hooks/${TICKETS}`, body, headers);

describe('intake over a real socket (node:http listener)', () => {
  it('starts one event for a signed ticket status change, with its variables', async () => {
    const response = await sendTicket();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'started',
      event_id: 'cbe4028c-7239-495d-b020-f22348516046',
    });
    expect(harness.started).toHaveLength(1);
    expect(harness.started[0]).toMatchObject({
      subscription: TICKETS,
      trigger: 'ticketing.ticket_status_changed',
      event_id: 'cbe4028c-7239-495d-b020-f22348516046',
      occurred_at: '2026-01-01T00:00:00.000Z',
      variables: { status: 'SOLVED', previous_status: 'OPEN', subject: 'Printer on fire' },
    });
  });

  it('answers a replayed delivery 200 duplicate and starts nothing more', async () => {
    expect((await sendTicket()).status).toBe(200);
    const replay = await sendTicket();
    expect(replay.status).toBe(200);
    expect(await replay.json()).toMatchObject({ status: 'duplicate' });
    expect(harness.started).toHaveLength(1);
  });

  it('answers 401 to one changed byte and to a dropped signature header, starting nothing', async () => {
    const changed = ticketBody.replace('Printer on fire', 'Printer on firf');
    expect((await sendTicket(changed)).status).toBe(401);
    const { 'x-zendesk-webhook-signature': _dropped, ...unsigned } = signTicketing(ticketBody, NOW);
    expect((await sendTicket(ticketBody, unsigned)).status).toBe(401);
    expect(harness.started).toEqual([]);
    expect(harness.refused.map((refusal) => refusal.code)).toEqual(['bad_signature', 'bad_signature']);
  });

  it('answers 401 to a rightly signed delivery whose timestamp is outside the window', async () => {
    harness.clock.advance(5 * 60_000 + 1_000);
    const response = await sendTicket();
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ status: 'timestamp_outside_window' });
    expect(harness.started).toEqual([]);
  });

  it('answers 413 to a 300 KB body, declared or streamed, without reading it', async () => {
    const big = Buffer.alloc(300 * 1024, 'a');
    expect((await sendTicket(big.toString(), signTicketing(big, NOW))).status).toBe(413);
    const streamed = await fetch(`${harness.base}/hooks/${TICKETS}`, {
      method: 'POST',
      body: new ReadableStream({
        start(controller) {
          for (let index = 0; index < 300; index += 1) controller.enqueue(new Uint8Array(1024));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(harness.started).toEqual([]);
    expect(harness.refused.map((refusal) => refusal.code)).toEqual([
      'payload_too_large',
      'payload_too_large',
    ]);
  });

  it('answers 500 when the handler throws, and the provider’s retry starts the event once', async () => {
    harness.failNext.count = 1;
    const failed = await sendTicket();
    expect(failed.status).toBe(500);
    expect(await failed.json()).toMatchObject({ status: 'handler_failed' });
    expect(harness.started).toEqual([]);
    expect((await sendTicket()).status).toBe(200);
    expect((await sendTicket()).status).toBe(200);
    expect(harness.started).toHaveLength(1);
  });

  it('answers 401 to an unknown subscription, as to a bad signature, and 405 to anything but POST', async () => {
    expect(
      (await post('/hooks/sub_ffffffffffffffff', ticketBody, signTicketing(ticketBody, NOW))).status,
    ).toBe(401);
    expect((await fetch(`${harness.base}/hooks/${TICKETS}`)).status).toBe(405);
  });

  it('answers 400 with the failing fields to a signed body that breaks the schema', async () => {
    const broken = JSON.stringify({ ...ticketStatusEvent(), id: 42 });
    const response = await sendTicket(broken, signTicketing(broken, NOW));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ status: 'invalid_payload', issues: [{ path: 'id' }] });
  });

  it('starts one event for a signed deployment, and refuses its replay', async () => {
    const body = JSON.stringify(deploymentEvent());
    const send = () => post(`/hooks/${DEPLOYS}`, body, signDeployments(body));
    expect((await send()).status).toBe(200);
    expect(await (await send()).json()).toMatchObject({ status: 'duplicate' });
    expect(harness.started).toHaveLength(1);
    expect(harness.started[0]?.variables).toMatchObject({ deployment_id: 'dpl_1', project: 'prj_web' });
  });
});

describe('intake as a fetch-style handler', () => {
  it('answers a Request with a Response, through the same stages', async () => {
    const handler = toFetchHandler(harness.intake);
    const request = (body: string, headers: Record<string, string>) =>
      new Request(`https://agents.example.com/hooks/${TICKETS}`, { method: 'POST', body, headers });
    const ok = await handler(request(ticketBody, signTicketing(ticketBody, NOW)));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ status: 'started' });
    expect((await handler(request(ticketBody, signTicketing(ticketBody, NOW)))).status).toBe(200);
    expect((await handler(request(`${ticketBody} `, signTicketing(ticketBody, NOW)))).status).toBe(401);
    expect(harness.started).toHaveLength(1);
  });
});
