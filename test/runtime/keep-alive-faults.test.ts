import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/index.js';
import { RedisCoordinator } from '../../src/coordination/redis-coordinator.js';
import { ManualClock } from '../../src/model/clock.js';
import { connectRedis } from '../../src/peers/load-ioredis.js';
import { keepAlivePass } from '../../src/runtime/keep-alive-pass.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { FileConnectionStore } from '../../src/store/files/file-connection-store.js';
import { RedisConnectionStore } from '../../src/store/redis/redis-connection-store.js';
import { SecretBox } from '../../src/store/sealed/secret-box.js';
import { integrations } from '../../steps/index.js';
import { newEncryptionKey } from '../coordination/support/worker-processes.js';
import { startOwnRedis } from '../support/own-redis.js';
import { sandboxTicketingConnection } from '../support/sandbox-ticketing-connection.js';
import { mountSmallDisk, type SmallDisk } from '../support/small-disk.js';
import { redisSuiteEnabled, testRedisUrl } from '../support/test-redis.js';

/**
 * Keep-alive's refresh meeting a fault at the save: Redis stopped for 30 s
 * (a redis-server of this test's own), and a full disk (a small tmpfs).
 * Either way the refresh token the provider rotated is not lost (the
 * refresh holds it until Redis is back; the file store's write-ahead
 * record keeps it for the next process), the connection is refreshed once,
 * and what is recorded says what happened.
 */

const DAY_MS = 86_400_000;
const integration = (id: string) => integrations.find((known) => known.id === id);
const redisEnabled = await redisSuiteEnabled(testRedisUrl(0));
const OUTAGE_MS = 30_000;

describe.skipIf(!redisEnabled)(
  'keep-alive across a 30 s Redis outage at the save (a Redis of its own)',
  () => {
    it('the rotated pair is held until Redis is back, then saved: one refresh, healthy, and the next pass sends nothing', async () => {
      const redis = await startOwnRedis('aof');
      const sandbox = await startSandbox();
      // A client that fails a command at its first failed reconnect: the save meets the outage at once.
      const coordinator = new RedisCoordinator(await connectRedis(redis.url, { maxRetriesPerRequest: 1 }), {
        prefix: 'keep-alive-outage',
      });
      try {
        const store = new RedisConnectionStore(
          coordinator,
          SecretBox.fromEnv({ TOOLSTEPS_ENCRYPTION_KEY: newEncryptionKey() }),
        );
        const now = Date.now();
        // Its refresh token ends in 3 days: inside the window, so the pass renews it.
        const connection = {
          ...sandboxTicketingConnection(sandbox, { now: () => now }, 'outage'),
          refreshExpiresAt: now + 3 * DAY_MS,
        };
        await store.put(connection);
        let outage: Promise<void> | undefined;
        const fetchThroughOutage: typeof fetch = async (input, init) => {
          const answer = await fetch(input, init);
          if (String(input).endsWith('/oauth/tokens') && !outage) {
            await redis.stop();
            outage = new Promise((resolve) => setTimeout(resolve, OUTAGE_MS)).then(() => redis.restart());
          }
          return answer;
        };
        const runtime = new Runtime({ store, transport: { fetch: fetchThroughOutage } });
        const started = Date.now();
        const report = await keepAlivePass(runtime, { integration });
        const waited = Date.now() - started;
        await outage;
        console.log(`[figures] keep-alive across a ${OUTAGE_MS} ms Redis outage: the pass took ${waited} ms`);
        expect(outage).toBeDefined();
        expect(waited).toBeGreaterThanOrEqual(OUTAGE_MS - 1000);
        expect(report.refreshed).toEqual(['outage']);
        expect(report.failed).toEqual([]);
        expect(sandbox.ticketing.oauth.grants.refresh_token).toBe(1);
        const saved = await store.get('outage');
        expect(saved?.secrets.refreshToken).not.toBe(connection.secrets.refreshToken);
        expect(saved?.lastRefresh?.outcome).toBe('refreshed');
        expect(saved?.health?.state).toBe('healthy');
        // The saved refresh token is the provider's live one: nothing further is due, nothing is sent.
        const again = await keepAlivePass(new Runtime({ store }), { integration });
        expect(again.refreshed).toEqual([]);
        expect(sandbox.ticketing.oauth.grants.refresh_token).toBe(1);
      } finally {
        await coordinator.close();
        await sandbox.close();
        await redis.close();
      }
    }, 180_000);
  },
);

const disk = await mountSmallDisk(512 * 1024);
const mounted = 'dir' in disk ? disk : undefined;
const skipped = 'unavailable' in disk ? ` (skipped: ${disk.unavailable})` : '';

describe.skipIf(!mounted)(
  `keep-alive on a full disk (a tmpfs of 512 KiB as the store's home)${skipped}`,
  () => {
    const small = mounted as SmallDisk;
    afterAll(async () => {
      await small?.unmount();
    });

    it('the rotated pair waits in the write-ahead record; the next process saves it without a second refresh', async () => {
      const clock = new ManualClock(Date.UTC(2026, 0, 1));
      const sandbox = await startSandbox({ clock });
      try {
        const home = path.join(small.dir, 'home');
        await mkdir(home);
        const store = new FileConnectionStore(home);
        const connection = sandboxTicketingConnection(sandbox, clock, 'full');
        await store.put(connection);
        clock.advance(24 * DAY_MS);
        await small.fill(1);
        const report = await keepAlivePass(new Runtime({ store, clock }), { integration });
        expect(sandbox.ticketing.oauth.grants.refresh_token).toBe(1);
        expect(report.failed).toEqual([]);
        // The connection's file could not take the pair: it still holds the spent token.
        const stillStored = await new FileConnectionStore(home).get('full');
        expect(stillStored?.secrets.refreshToken).toBe(connection.secrets.refreshToken);

        await small.free();
        // Another process (a new store and runtime) finds the pair where the first kept it.
        const next = new FileConnectionStore(home);
        const later = await keepAlivePass(new Runtime({ store: next, clock }), { integration });
        expect(later.refreshed).toEqual([]);
        expect(later.health).toEqual({ full: 'healthy' });
        expect(sandbox.ticketing.oauth.grants.refresh_token).toBe(1);
        const saved = await next.get('full');
        expect(saved?.secrets.refreshToken).not.toBe(connection.secrets.refreshToken);
        expect(saved?.refreshExpiresAt).toBeGreaterThan(clock.now() + 29 * DAY_MS);
        // The saved token is the provider's live one: 23 days on, it renews.
        clock.advance(23 * DAY_MS);
        const renewed = await keepAlivePass(new Runtime({ store: next, clock }), { integration });
        expect(renewed.refreshed).toEqual(['full']);
        expect(sandbox.ticketing.oauth.grants.refresh_token).toBe(2);
        expect((await next.get('full'))?.lastRefresh?.outcome).toBe('refreshed');
      } finally {
        await small.free();
        await sandbox.close();
      }
    });
  },
);
