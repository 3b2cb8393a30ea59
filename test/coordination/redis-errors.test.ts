import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventQueue } from '../../src/coordination/event-queue.js';
import { onceByKey } from '../../src/coordination/idempotency-record.js';
import { RedisCoordinator } from '../../src/coordination/redis-coordinator.js';
import type { Connection } from '../../src/model/connection.js';
import { MemoryLogger } from '../../src/model/logger.js';
import type { TriggerEvent } from '../../src/model/trigger-event.js';
import { connectRedis, type RedisClientOptions } from '../../src/peers/load-ioredis.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { RedisConnectionStore } from '../../src/store/redis/redis-connection-store.js';
import { RedisSubscriptionStore } from '../../src/store/redis/redis-subscription-store.js';
import { SecretBox } from '../../src/store/sealed/secret-box.js';
import { createRegistry } from '../../steps/index.js';
import { type AnzDataFixture, anzDataFixture } from '../steps/anz-data/anz-data-fixture.js';
import { bundleForChild } from '../support/bundle-for-child.js';
import { type OwnRedis, startOwnRedis } from '../support/own-redis.js';
import { redisSuiteEnabled, testRedisUrl } from '../support/test-redis.js';
import { subscriptionFor } from '../triggers/trigger-fixtures.js';
import { waitFor } from './support/worker-processes.js';

const enabled = await redisSuiteEnabled(testRedisUrl(0));
const PASSWORD = `pw-${randomBytes(12).toString('hex')}`;
const PREFIX = 'errors';
const SUBSCRIPTION = 'sub_00112233445566778899';
const KEY = randomBytes(32).toString('base64');
const run = promisify(execFile);

/** What a caller can rely on in a failure: its code, whether to retry, whether anything went out. */
function shapeOf(error: unknown, port: number) {
  const failure = error as { code?: unknown; retryable?: unknown; sent?: unknown; message?: string };
  return {
    code: failure.code,
    retryable: failure.retryable,
    sent: failure.sent,
    namesRedis: String(failure.message).includes(`127.0.0.1:${port}`),
    leaksPassword: JSON.stringify({ ...failure, message: failure.message }).includes(PASSWORD),
  };
}

/**
 * Runs each surface at once (a dead Redis makes each wait out its client's
 * retries) and describes how each failed; one still waiting after `patienceMs` hung.
 */
async function failures(surfaces: Record<string, () => Promise<unknown>>, port: number, patienceMs: number) {
  const entries = await Promise.all(
    Object.entries(surfaces).map(async ([name, surface]) => {
      let timer: NodeJS.Timeout | undefined;
      const hung = new Promise<'hung'>((resolve) => {
        timer = setTimeout(() => resolve('hung'), patienceMs);
      });
      try {
        return [name, await Promise.race([surface().then(() => 'resolved' as const), hung])] as const;
      } catch (error) {
        return [name, shapeOf(error, port)] as const;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return Object.fromEntries(entries);
}

const DOCUMENTED = {
  code: 'network_error',
  retryable: true,
  sent: false,
  namesRedis: true,
  leaksPassword: false,
};

/**
 * A Redis of the test's own, with a password, killed with SIGKILL mid-run:
 * every store and coordinator surface must fail with the documented error (a
 * retryable network_error, nothing sent, Redis named by host and port and
 * never its password), not the client's raw MaxRetriesPerRequestError.
 */
describe.skipIf(!enabled)(
  'Redis failures are network_error, nothing sent (a Redis of its own, killed)',
  () => {
    let redis: OwnRedis;
    let coordinator: RedisCoordinator;
    let connections: RedisConnectionStore;
    let subscriptions: RedisSubscriptionStore;
    let fx: AnzDataFixture;
    let connection: Connection;
    let main: string;
    let home: string;
    const registry = createRegistry();
    const open: { close(): Promise<void> }[] = [];

    async function coordinatorOn(options: RedisClientOptions): Promise<RedisCoordinator> {
      const opened = new RedisCoordinator(await connectRedis(redis.url, options), { prefix: PREFIX });
      open.push(opened);
      return opened;
    }

    beforeAll(async () => {
      [redis, fx, { main }, home] = await Promise.all([
        startOwnRedis('none', { password: PASSWORD }),
        anzDataFixture(),
        bundleForChild('toolsteps-redis-errors'),
        mkdtemp(path.join(os.tmpdir(), 'toolsteps-redis-errors-')),
      ]);
      // Few retries, so a dead Redis fails each call within a second or two instead of the default 30 s.
      coordinator = await coordinatorOn({ maxRetriesPerRequest: 1 });
      const box = new SecretBox(Buffer.from(KEY, 'base64'));
      connections = new RedisConnectionStore(coordinator, box, { lockWaitMs: 1000 });
      subscriptions = new RedisSubscriptionStore(coordinator, box);
      connection = (await fx.store.get('anz-main')) as Connection;
      await connections.put(connection);
      await subscriptions.put(subscriptionFor('ticketing.ticket_created', { id: SUBSCRIPTION }));
    }, 180_000);

    afterAll(async () => {
      for (const item of open) await item.close().catch(() => undefined);
      await redis?.close();
      await fx?.close();
      if (home) await rm(home, { recursive: true, force: true });
    });

    it('public parts that are not JSON are a typed error naming the record, not a SyntaxError', async () => {
      const raw = new Redis(redis.url);
      try {
        await raw.hset(`${PREFIX}:conn:broken`, {
          public: '{not json',
          secrets: 'x',
          kid: 'k',
          version: '1',
        });
        await raw.sadd(`${PREFIX}:conn:_index`, 'broken');
        for (const listing of [
          () => RedisConnectionStore.listWithoutSecrets(coordinator),
          () => connections.listPublic(),
        ]) {
          await expect(listing()).rejects.toMatchObject({
            code: 'record_tampered',
            message: expect.stringContaining('connection broken'),
          });
        }
      } finally {
        await raw.del(`${PREFIX}:conn:broken`);
        await raw.srem(`${PREFIX}:conn:_index`, 'broken');
        raw.disconnect();
      }
    });

    it('a script Redis refuses (a key of the wrong type) is a network_error that says retrying will not help', async () => {
      const raw = new Redis(redis.url);
      await raw.hset(`${PREFIX}:count:credits:wrong-type`, { not: 'a counter' });
      raw.disconnect();
      const runtime = new Runtime({ store: fx.store, clock: fx.clock, coordination: coordinator });
      const refused = await registry
        .invoke(runtime, 'anz_data.enrich_person', {
          connection: 'anz-main',
          input: { profile_slug: 'olivia-nguyen' },
          sharedCreditBudget: { pool: 'wrong-type', limit: 10 },
        })
        .catch((error: unknown) => error);
      expect(shapeOf(refused, redis.port)).toEqual({ ...DOCUMENTED, retryable: false });
      expect(fx.sent()).toHaveLength(0);
    });

    it('a Redis that stops answering (a reply timeout) is a retryable network_error', async () => {
      const impatient = await coordinatorOn({ maxRetriesPerRequest: 1, commandTimeout: 300 });
      await impatient.getValue('warm-up');
      redis.process.kill('SIGSTOP');
      try {
        expect(
          shapeOf(await impatient.getValue('late').catch((error: unknown) => error), redis.port),
        ).toEqual(DOCUMENTED);
      } finally {
        redis.process.kill('SIGCONT');
      }
    });

    it('Redis lost while the provider answers: the call that was made returns its result, the lost give-back and record are logged', async () => {
      const other = await startOwnRedis('none');
      try {
        const lost = new RedisCoordinator(await connectRedis(other.url, { maxRetriesPerRequest: 1 }), {
          prefix: PREFIX,
        });
        open.push(lost);
        const logger = new MemoryLogger();
        const runtime = new Runtime({ store: fx.store, clock: fx.clock, coordination: lost, logger });
        fx.sandbox.faults.add({ target: 'anz-data', count: 1, action: { kind: 'delay', ms: 1000 } });
        const before = fx.sent().length;
        const call = registry.invoke(runtime, 'anz_data.enrich_person', {
          connection: 'anz-main',
          // Matches nobody: charges nothing, so the whole worst case is to be given back.
          input: { email: 'nobody@unknown.example' },
          sharedCreditBudget: { pool: 'lost', limit: 10 },
          idempotencyKey: 'lost-1',
        });
        await waitFor(() => fx.sent().length > before, 'the request to reach the provider');
        await other.kill();
        expect((await call).meta.credits?.charged).toBe(0);
        expect(logger.lines.filter((line) => line.level === 'warn').map((line) => line.message)).toEqual(
          expect.arrayContaining([
            'could not give unused credits back to the shared budget',
            'could not keep the idempotency record; a repeat of this key will run again',
          ]),
        );
      } finally {
        await other.close();
      }
    });

    it('killed mid-run: every store, lock, budget, gate, quota, record and queue fails as documented', async () => {
      expect((await connections.get('anz-main'))?.id).toBe('anz-main');
      const closing = await coordinatorOn({ retryStrategy: () => null });
      await closing.getValue('warm-up');
      const queue = await EventQueue.open({ redisUrl: redis.url, prefix: PREFIX });
      open.push(queue);
      const event = { trigger: 'ticketing.ticket_created', subscription: SUBSCRIPTION, event_id: 'e1' };
      await queue.add({ ...event, event_id: 'e0' } as TriggerEvent);
      await redis.kill();
      const sentBefore = fx.sent().length;

      const runtime = new Runtime({ store: fx.store, clock: fx.clock, coordination: coordinator });
      const invoke = (options: Record<string, unknown>) =>
        registry.invoke(runtime, 'anz_data.enrich_person', {
          connection: 'anz-main',
          input: { profile_slug: 'olivia-nguyen' },
          ...options,
        });
      const cliRun = run(
        process.execPath,
        [
          main,
          'run',
          'anz_data.enrich_person',
          '--connection',
          'anz-main',
          '--input',
          '{"profile_slug":"x"}',
          '--json',
        ],
        {
          env: {
            ...process.env,
            TOOLSTEPS_HOME: home,
            TOOLSTEPS_REDIS_URL: redis.url,
            TOOLSTEPS_ENCRYPTION_KEY: KEY,
          },
          timeout: 90_000,
        },
      ).then(
        () => ({ exit: 0, out: '' }),
        (error: { code: number; stdout: string }) => ({ exit: error.code, out: error.stdout }),
      );
      const surfaces: Record<string, () => Promise<unknown>> = {
        'connections.get': () => connections.get('anz-main'),
        'connections.put': () => connections.put(connection),
        'connections.update': () => connections.update('anz-main', (current) => current),
        'connections.list': () => connections.list(),
        'connections.listWithoutSecrets': () => RedisConnectionStore.listWithoutSecrets(coordinator),
        'connections.remove': () => connections.remove('anz-main'),
        'connections.rekey': () => connections.rekey(),
        'subscriptions.get': () => subscriptions.get(SUBSCRIPTION),
        'subscriptions.put': () =>
          subscriptions.put(subscriptionFor('ticketing.ticket_created', { id: SUBSCRIPTION })),
        'subscriptions.list': () => subscriptions.list(),
        'subscriptions.recordDelivery': () => subscriptions.recordDelivery(SUBSCRIPTION, 1),
        'dedupe.claim': () => coordinator.claim('event-1', 60_000),
        'dedupe.complete': () => coordinator.complete('event-1', 'token', 60_000),
        'dedupe.release': () => coordinator.release('event-1', 'token'),
        'dedupe.markOnce': () => coordinator.markOnce('event-2', 60_000),
        'refresh lock': () => connections.withConnectionLock('anz-main', async () => 'ran'),
        'credit budget': () => invoke({ sharedCreditBudget: { pool: 'run-7', limit: 10 } }),
        'idempotency record (runtime)': () => invoke({ idempotencyKey: 'once-1' }),
        'idempotency record': () => onceByKey(coordinator, 'k', 60_000, async () => 'ran'),
        'rate gate': () => invoke({}),
        'quota.take': () => coordinator.takeQuota('connection:anz-main', Date.now()),
        'quota.observe': () => coordinator.observeQuota('connection:anz-main', [], Date.now(), true),
        'counter.addWithinLimit': () => coordinator.addWithinLimit('c', 1, 10, 60_000),
        'kv.compareAndSet': () => coordinator.compareAndSet('v', undefined, 'x', 60_000),
        'connection closed': () => closing.tryLock('l', 1000),
        'event queue': () => queue.add(event as TriggerEvent),
      };
      const outcomes = await failures(surfaces, redis.port, 45_000);
      expect(outcomes).toEqual(Object.fromEntries(Object.keys(surfaces).map((name) => [name, DOCUMENTED])));
      expect(fx.sent()).toHaveLength(sentBefore);

      const cli = await cliRun;
      expect(cli.exit).toBe(1);
      const printed = (JSON.parse(cli.out) as { error: Record<string, unknown> }).error;
      expect(printed).toMatchObject({ code: 'network_error', retryable: true, sent: false });
      expect(printed.message).toContain(`127.0.0.1:${redis.port}`);
      expect(cli.out).not.toContain(PASSWORD);
    }, 120_000);
  },
);
