import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebhookDispatcher } from '../../../sandbox/webhooks/webhook-dispatcher.js';
import { WebhookFaults } from '../../../sandbox/webhooks/webhook-faults.js';
import { ManualClock } from '../../../src/model/clock.js';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A receiver that reads the request and never answers. */
async function silentReceiver(): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  const server = http.createServer((request) => {
    hits += 1;
    request.resume();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, hits: () => hits };
}

describe('webhook dispatcher', () => {
  it('counts a receiver that never answers as a failed attempt after the timeout, and retries it', async () => {
    const clock = new ManualClock(Date.UTC(2026, 5, 1));
    const receiver = await silentReceiver();
    const dispatcher = new WebhookDispatcher({
      clock,
      faults: new WebhookFaults(),
      timeoutMs: 150,
      maxAttempts: 2,
    });
    const delivery = dispatcher.enqueue({
      source: 'test',
      webhookId: 'w1',
      url: receiver.url,
      eventId: 'e1',
      eventType: 'test',
      body: '{}',
      sign: () => ({}),
    });
    await dispatcher.settle();
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0]!.error).toMatch(/no answer within 150 ms/);
    expect(delivery).toMatchObject({ state: 'pending', dueAt: clock.now() + 1_000 });
    clock.advance(1_000);
    await dispatcher.settle();
    expect(receiver.hits()).toBe(2);
    expect(delivery.state).toBe('failed');
  });

  it('counts a refused connection as a failed attempt', async () => {
    const clock = new ManualClock(Date.UTC(2026, 5, 1));
    const dispatcher = new WebhookDispatcher({ clock, faults: new WebhookFaults(), maxAttempts: 1 });
    const delivery = dispatcher.enqueue({
      source: 'test',
      webhookId: 'w1',
      url: 'http://127.0.0.1:1/hook',
      eventId: 'e1',
      eventType: 'test',
      body: '{}',
      sign: () => ({}),
    });
    await dispatcher.settle();
    expect(delivery.state).toBe('failed');
    expect(delivery.attempts[0]!.error).toBeTruthy();
  });
});
