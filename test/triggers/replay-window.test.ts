import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/model/clock.js';
import type { TriggerEvent } from '../../src/model/trigger-event.js';
import { MemoryDedupeStore } from '../../src/store/memory/memory-dedupe-store.js';
import { MemorySubscriptionStore } from '../../src/store/memory/memory-subscription-store.js';
import { defineTrigger } from '../../src/triggers/define-trigger.js';
import { createIntake, type IntakeOptions } from '../../src/triggers/intake/intake.js';
import { toNodeListener } from '../../src/triggers/intake/node-listener.js';
import deploymentStarted from '../../steps/deployments/triggers/deployment-started.js';
import { createRegistry } from '../../steps/index.js';
import { deploymentEvent, signDeployments, subscriptionFor } from './trigger-fixtures.js';

/**
 * An attacker who captured one signed deployment delivery (a log, a proxy,
 * a misdirected webhook) sends it again later. The provider signs no time,
 * only the body, whose `createdAt` the attacker cannot change.
 */

const DEPLOYS = 'sub_00000000000000b2';
const CREATED = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const captured = JSON.stringify(deploymentEvent('deployment.created', { id: 'evt_captured' }));
const capturedHeaders = { 'content-type': 'application/json', ...signDeployments(captured) };

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

interface Listener {
  send(): Promise<{ status: number; body: Record<string, unknown> }>;
  started: TriggerEvent[];
}

/** A listener over a real socket; `dedupe` is passed in so a test can lose it, as a Redis restart without persistence does. */
async function listener(
  clock: ManualClock,
  dedupe: MemoryDedupeStore,
  started: TriggerEvent[],
  options: Partial<IntakeOptions> = {},
): Promise<Listener> {
  const subscriptions = new MemorySubscriptionStore();
  await subscriptions.put(subscriptionFor('deployments.deployment_started', { id: DEPLOYS }));
  const intake = createIntake({
    subscriptions,
    triggers: createRegistry(),
    dedupe,
    clock,
    handler: (event) => void started.push(event),
    ...options,
  });
  const server = createServer(toNodeListener(intake));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    started,
    async send() {
      const response = await fetch(`http://127.0.0.1:${port}/hooks/${DEPLOYS}`, {
        method: 'POST',
        body: captured,
        headers: capturedHeaders,
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
  };
}

describe('a captured deployment delivery sent again', () => {
  it('is refused once the dedupe record has expired: the event is older than the window (a day)', async () => {
    const clock = new ManualClock(CREATED + MINUTE);
    const { send, started } = await listener(clock, new MemoryDedupeStore(clock), []);
    expect((await send()).status).toBe(200);
    // Past the default 7 days for which a handled event id is remembered.
    clock.advance(7 * DAY + MINUTE);
    const replay = await send();
    expect(replay).toMatchObject({ status: 401, body: { status: 'timestamp_outside_window' } });
    expect(started).toHaveLength(1);
  });

  it('is a duplicate while the window is open, however short the dedupe time is set', async () => {
    const clock = new ManualClock(CREATED + MINUTE);
    const dedupe = new MemoryDedupeStore(clock);
    const { send, started } = await listener(clock, dedupe, [], { doneTtlMs: MINUTE });
    expect((await send()).status).toBe(200);
    for (const later of [2 * MINUTE, 6 * 60 * MINUTE, DAY - 3 * MINUTE]) {
      clock.advance(later - (clock.now() - CREATED));
      expect(await send(), `${later / MINUTE} min after`).toMatchObject({
        status: 200,
        body: { status: 'duplicate' },
      });
    }
    clock.advance(5 * MINUTE);
    expect((await send()).status).toBe(401);
    expect(started).toHaveLength(1);
  });

  it('is refused after the window even when the dedupe records were lost', async () => {
    const clock = new ManualClock(CREATED + MINUTE);
    const first = await listener(clock, new MemoryDedupeStore(clock), []);
    expect((await first.send()).status).toBe(200);
    clock.advance(DAY);
    const restarted = await listener(clock, new MemoryDedupeStore(clock), []);
    expect((await restarted.send()).status).toBe(401);
    expect(restarted.started).toEqual([]);
  });

  it('starts the event again within the window only when the dedupe records were lost (docs/replay-window.md)', async () => {
    const clock = new ManualClock(CREATED + MINUTE);
    const first = await listener(clock, new MemoryDedupeStore(clock), []);
    expect((await first.send()).status).toBe(200);
    clock.advance(60 * MINUTE);
    const restarted = await listener(clock, new MemoryDedupeStore(clock), []);
    expect((await restarted.send()).status).toBe(200);
    expect(restarted.started).toHaveLength(1);
  });
});

describe('a trigger declares where its event time comes from', () => {
  it('refuses a signed-time window over a scheme that signs no time, and a payload window of no length', () => {
    expect(() => defineTrigger({ ...deploymentStarted, eventTime: { from: 'signature' } })).toThrowError(
      /verify\.signedTime/,
    );
    expect(() =>
      defineTrigger({ ...deploymentStarted, eventTime: { from: 'payload', maxAgeMs: 0 } }),
    ).toThrowError(/maxAgeMs/);
  });
});
