import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventHandler, sinkSettings } from '../../../cli/listen/event-handler.js';
import { eraseQueuedEvents } from '../../../src/coordination/erase-queued-events.js';
import {
  DEAD_EVENTS_QUEUE,
  EVENTS_QUEUE,
  EventQueue,
  runEventWorker,
} from '../../../src/coordination/event-queue.js';
import type { TriggerEvent } from '../../../src/model/trigger-event.js';
import { clearTestKeys, redisSuiteEnabled, testPrefix, testRedisUrl } from '../../support/test-redis.js';
import { A, B } from './two-tenants.js';

const REDIS_URL = testRedisUrl(12);
const enabled = await redisSuiteEnabled(REDIS_URL);

function event(tenant: string | undefined, id: string): TriggerEvent {
  return {
    ...(tenant === undefined ? {} : { tenant }),
    subscription: 'sub_0000000000000000aa',
    trigger: 'ticketing.ticket_created',
    event_id: id,
    occurred_at: '2026-01-01T00:00:00.000Z',
    variables: {},
    payload: {},
  } as TriggerEvent;
}

/** An agent platform that records each forward's tenant header and body. */
async function platform(): Promise<{
  server: Server;
  url: string;
  got: { header: unknown; body: TriggerEvent }[];
}> {
  const got: { header: unknown; body: TriggerEvent }[] = [];
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => {
      text += chunk;
    });
    request.on('end', () => {
      got.push({ header: request.headers['x-toolsteps-tenant'], body: JSON.parse(text) });
      response.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/start`, got };
}

describe.skipIf(!enabled)("worker: each event goes on with its own tenant, never another's (Redis)", () => {
  const prefix = testPrefix('isolation-worker');
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-isolation-worker-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await clearTestKeys(REDIS_URL, prefix);
  });

  it("forwards the tenant as X-Toolsteps-Tenant and in the body, hands it to --exec, and keeps two tenants' same event apart", async () => {
    const agents = await platform();
    const log = path.join(dir, 'exec.log');
    const sinks = sinkSettings({
      forwardTo: agents.url,
      exec: `printf '%s\\n' "$TOOLSTEPS_TENANT" >> '${log}'`,
    });
    const queue = await EventQueue.open({ redisUrl: REDIS_URL, prefix });
    const done: string[] = [];
    const dead: string[] = [];
    const worker = await runEventWorker({
      redisUrl: REDIS_URL,
      prefix,
      handle: eventHandler(sinks),
      attempts: 1,
      onCompleted: (one) => done.push(`${one.tenant}/${one.event_id}`),
      onDead: (one) => dead.push(one.event_id),
    });
    try {
      // The same subscription id and event id in two tenants are two jobs; a job queued before tenants is the default's.
      await queue.add(event(A, 'evt-1'));
      await queue.add(event(B, 'evt-1'));
      await queue.add(event(A, 'evt-1'));
      await queue.add(event(undefined, 'evt-old'));
      await queue.add(event('../a', 'evt-forged'));
      const deadline = Date.now() + 30_000;
      while ((done.length < 3 || dead.length < 1) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
    } finally {
      await worker.close();
      await queue.close();
      await new Promise((resolve) => agents.server.close(resolve));
    }
    expect(done.sort()).toEqual(['a/evt-1', 'b/evt-1', 'default/evt-old']);
    expect(dead).toEqual(['evt-forged']);
    const forwarded = agents.got
      .map(({ header, body }) => `${header}:${body.tenant}:${body.event_id}`)
      .sort();
    expect(forwarded).toEqual(['a:a:evt-1', 'b:b:evt-1', 'default:default:evt-old']);
    expect((await readFile(log, 'utf8')).trim().split('\n').sort()).toEqual(['a', 'b', 'default']);
  }, 60_000);

  it("erasing a tenant deletes its queued, delayed and dead events and leaves every other tenant's", async () => {
    const own = testPrefix('isolation-erase-queue');
    const queue = await EventQueue.open({ redisUrl: REDIS_URL, prefix: own });
    const { Queue } = await import('bullmq');
    const { connectRedis } = await import('../../../src/peers/load-ioredis.js');
    const client = await connectRedis(REDIS_URL);
    const dead = new Queue(DEAD_EVENTS_QUEUE, { connection: client, prefix: own });
    const events = new Queue(EVENTS_QUEUE, { connection: client, prefix: own });
    try {
      for (let n = 0; n < 7; n += 1) await queue.add(event(A, `a-${n}`));
      await queue.add(event(B, 'b-1'));
      await queue.add(event(undefined, 'default-1'));
      await events.add('later', event(A, 'a-later'), { jobId: 'a-later', delay: 60_000 });
      await dead.add('dead', { event: event(A, 'a-dead'), reason: 'x', attempts: 5 }, { jobId: 'a-dead' });
      await dead.add('dead', { event: event(B, 'b-dead'), reason: 'x', attempts: 5 }, { jobId: 'b-dead' });
      const erased = await eraseQueuedEvents({ redisUrl: REDIS_URL, prefix: own, tenant: A });
      expect(erased).toEqual({ removed: 9, running: 0 });
      // biome-ignore lint/suspicious/noExplicitAny: a BullMQ queue of any job data
      const left = async (from: import('bullmq').Queue<any>, dead: boolean) =>
        (await from.getJobs(['waiting', 'delayed', 'failed', 'completed', 'prioritized']))
          .map((job) => (dead ? job.data.event : job.data).event_id)
          .sort();
      expect(await left(events, false)).toEqual(['b-1', 'default-1']);
      expect(await left(dead, true)).toEqual(['b-dead']);
      expect(await eraseQueuedEvents({ redisUrl: REDIS_URL, prefix: own, tenant: A })).toEqual({
        removed: 0,
        running: 0,
      });
    } finally {
      await Promise.all([queue.close(), dead.close(), events.close()]);
      await client.quit();
      await clearTestKeys(REDIS_URL, own);
    }
  }, 60_000);
});
