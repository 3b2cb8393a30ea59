import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { EVENTS_QUEUE, EventQueue, eventJobId, runEventWorker } from '../../src/coordination/event-queue.js';
import type { TriggerEvent } from '../../src/model/trigger-event.js';
import { clearTestKeys, redisSuiteEnabled, testPrefix, testRedisUrl } from '../support/test-redis.js';

const REDIS_URL = testRedisUrl(12);
const enabled = await redisSuiteEnabled(REDIS_URL);

function event(id: string): TriggerEvent {
  return {
    tenant: 'default',
    subscription: 'sub_0000000000000000aa',
    trigger: 'ticketing.ticket_created',
    event_id: id,
    occurred_at: '2026-01-01T00:00:00.000Z',
    variables: { id },
    payload: { id },
  };
}

describe.skipIf(!enabled)(
  'the event queue: the events of one turn added together, each serialised once (Redis)',
  () => {
    const prefix = testPrefix('queue-batch');
    afterAll(() => clearTestKeys(REDIS_URL, prefix));

    it('stores the JSON the intake gave as it is, adds a repeated id once, and a worker runs each event once', async () => {
      const queue = await EventQueue.open({ redisUrl: REDIS_URL, prefix });
      const events = ['evt-1', 'evt-2', 'evt-3'].map(event);
      // Spaced out as JSON.stringify(event) never is: the stored text shows whether it was serialised again.
      const given = events.map((one) => JSON.stringify(one, null, 1));
      const ran: TriggerEvent[] = [];
      const reader = new Redis(REDIS_URL);
      try {
        await Promise.all([
          ...events.map((one, index) => queue.add(one, given[index])),
          queue.add(events[0] as TriggerEvent, given[0]),
        ]);
        const stored = await Promise.all(
          events.map((one) => reader.hget(`${prefix}:${EVENTS_QUEUE}:${eventJobId(one)}`, 'data')),
        );
        expect(stored).toEqual(given);
        const worker = await runEventWorker({
          redisUrl: REDIS_URL,
          prefix,
          attempts: 1,
          handle: async (one) => {
            ran.push(one);
          },
        });
        const deadline = Date.now() + 20_000;
        while (ran.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        await new Promise((r) => setTimeout(r, 300));
        await worker.close();
      } finally {
        reader.disconnect();
        await queue.close();
      }
      expect(ran.map((one) => one.event_id).sort()).toEqual(['evt-1', 'evt-2', 'evt-3']);
      expect(ran.find((one) => one.event_id === 'evt-2')).toEqual(events[1]);
    }, 60_000);

    it('stores the JSON of an event added alone in its turn as it is, and adds its id once', async () => {
      const queue = await EventQueue.open({ redisUrl: REDIS_URL, prefix });
      const alone = event('evt-alone');
      const given = JSON.stringify(alone, null, 1);
      const reader = new Redis(REDIS_URL);
      try {
        await queue.add(alone, given);
        await queue.add(alone, JSON.stringify(alone));
        const key = `${prefix}:${EVENTS_QUEUE}:${eventJobId(alone)}`;
        expect(await reader.hget(key, 'data')).toBe(given);
        expect(await reader.llen(`${prefix}:${EVENTS_QUEUE}:wait`)).toBe(1);
      } finally {
        reader.disconnect();
        await queue.close();
      }
    }, 60_000);
  },
);
